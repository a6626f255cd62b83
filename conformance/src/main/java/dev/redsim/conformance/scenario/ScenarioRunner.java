package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.ClusterTarget;
import dev.redsim.conformance.target.RedisTarget;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Runs a scenario on two sides step by step and reports every reply that differs: two live targets (the
 * reference, real Redis, and the target under test, the simulator), two live clusters, or a recording of the
 * reference's replies and a live target (see {@link #compare}).
 */
public final class ScenarioRunner {
    private final IntFunction<ReplySource> expected;
    private final IntFunction<ReplySource> actual;

    /** @param expected the reference (real Redis); @param actual the target under test (the simulator) */
    public ScenarioRunner(RedisTarget expected, RedisTarget actual) {
        this(protocol -> new LiveReplies(expected, protocol), protocol -> new LiveReplies(actual, protocol));
    }

    /** @param expected the reference cluster (real Redis); @param actual the cluster under test (the simulator's) */
    public ScenarioRunner(ClusterTarget expected, ClusterTarget actual) {
        this(protocol -> new ClusterLiveReplies(expected, protocol),
                protocol -> new ClusterLiveReplies(actual, protocol));
    }

    private ScenarioRunner(IntFunction<ReplySource> expected, IntFunction<ReplySource> actual) {
        this.expected = expected;
        this.actual = actual;
    }

    /**
     * The outcome of one run: how many replies were compared, the differences, and the reference side's
     * replies step by step (what a recording keeps).
     */
    public record Result(int compared, List<String> differences, List<StepReply> reference) {
        public boolean passed() {
            return differences.isEmpty();
        }
    }

    public Result run(Scenario scenario, int protocol) {
        try (ReplySource want = expected.apply(protocol);
             ReplySource got = actual.apply(protocol)) {
            return compare(scenario, protocol, want, got);
        }
    }

    /** Runs the steps of {@code scenario} that belong to {@code protocol} on both sides and compares the replies. */
    public static Result compare(Scenario scenario, int protocol, ReplySource expected, ReplySource actual) {
        List<String> differences = new ArrayList<>();
        List<StepReply> reference = new ArrayList<>();
        int compared = 0;
        for (Step step : scenario.steps()) {
            if (step.protocol() != 0 && step.protocol() != protocol) {
                continue;
            }
            if (step.io() == Step.Io.AWAIT_BLOCKED) {
                long want = Long.parseLong(new String(step.args()[0], StandardCharsets.US_ASCII));
                compared++;
                reference.add(new StepReply(step, null));
                for (ReplySource side : new ReplySource[] {expected, actual}) {
                    if (!side.awaitBlocked(step, want)) {
                        differences.add(String.format("%s:%d (RESP%d) %s never reached on %s", scenario.file(),
                                step.line(), protocol, step.commandText(), side.name()));
                    }
                }
                continue;
            }
            if (step.io() != Step.Io.RECEIVE) {
                expected.send(step);
                actual.send(step);
            }
            if (step.io() == Step.Io.SEND) {
                reference.add(new StepReply(step, null));
                continue;
            }
            RespValue want = expected.receive(step);
            RespValue got = actual.receive(step);
            if (step.compare() == Step.Compare.IGNORE) {
                reference.add(new StepReply(step, null));
                continue;
            }
            compared++;
            reference.add(new StepReply(step, want));
            if (!same(step, want, got)) {
                differences.add(String.format("%s:%d (RESP%d) %s%n    %s%n    %s", scenario.file(), step.line(),
                        protocol, step.commandText(), labelled(expected, want), labelled(actual, got)));
            }
        }
        return new Result(compared, differences, reference);
    }

    private static String labelled(ReplySource side, RespValue reply) {
        return String.format("%-13s %s", side.name() + ":", reply);
    }

    /** Whether two replies to {@code step} are equal under the step's declared normalisation. */
    public static boolean same(Step step, RespValue want, RespValue got) {
        switch (step.compare()) {
            case SORTED:
                return want.sorted().equals(got.sorted());
            case SHAPE:
                return want.type() == got.type()
                        && (want.children() == null ? got.children() == null
                        : got.children() != null && want.children().size() == got.children().size());
            case APPROX:
                if (want.type() == ':' && got.type() == ':') {
                    return Math.abs(want.asLong() - got.asLong()) <= step.tolerance();
                }
                return want.equals(got);
            default:
                return want.equals(got);
        }
    }
}
