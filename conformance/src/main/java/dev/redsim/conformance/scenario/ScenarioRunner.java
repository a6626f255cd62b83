package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.BlockedClientsProbe;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a scenario on two targets side by side, step by step, and reports every reply that differs. Both
 * targets are flushed first; each scenario client is one connection per target, switched to RESP3 with HELLO 3
 * when the run is under RESP3.
 */
public final class ScenarioRunner {
    private final RedisTarget expected;
    private final RedisTarget actual;

    /** @param expected the reference (real Redis); @param actual the target under test (the simulator) */
    public ScenarioRunner(RedisTarget expected, RedisTarget actual) {
        this.expected = expected;
        this.actual = actual;
    }

    /** The outcome of one run: how many replies were compared, and the differences. */
    public record Result(int compared, List<String> differences) {
        public boolean passed() {
            return differences.isEmpty();
        }
    }

    public Result run(Scenario scenario, int protocol) {
        reset(expected);
        reset(actual);
        Map<Integer, RespClient[]> clients = new HashMap<>();
        List<String> differences = new ArrayList<>();
        int compared = 0;
        try {
            for (Step step : scenario.steps()) {
                if (step.protocol() != 0 && step.protocol() != protocol) {
                    continue;
                }
                RespClient[] pair = clients.computeIfAbsent(step.client(), c -> open(protocol));
                if (step.io() == Step.Io.AWAIT_BLOCKED) {
                    long want = Long.parseLong(new String(step.args()[0], java.nio.charset.StandardCharsets.US_ASCII));
                    compared++;
                    for (RedisTarget target : new RedisTarget[] {expected, actual}) {
                        if (!awaitBlocked(target, want)) {
                            differences.add(String.format("%s:%d (RESP%d) %s never reached on %s", scenario.file(),
                                    step.line(), protocol, step.commandText(), target.name()));
                        }
                    }
                    continue;
                }
                if (step.io() == Step.Io.SEND) {
                    pair[0].send(step.args());
                    pair[1].send(step.args());
                    continue;
                }
                if (step.io() == Step.Io.CALL) {
                    pair[0].send(step.args());
                    pair[1].send(step.args());
                }
                RespValue want = pair[0].read();
                RespValue got = pair[1].read();
                if (step.compare() == Step.Compare.IGNORE) {
                    continue;
                }
                compared++;
                if (!same(step, want, got)) {
                    differences.add(String.format("%s:%d (RESP%d) %s%n    redis:     %s%n    simulator: %s",
                            scenario.file(), step.line(), protocol, step.commandText(), want, got));
                }
            }
        } finally {
            for (RespClient[] pair : clients.values()) {
                pair[0].close();
                pair[1].close();
            }
        }
        return new Result(compared, differences);
    }

    static boolean same(Step step, RespValue want, RespValue got) {
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

    private RespClient[] open(int protocol) {
        RespClient a = new RespClient(expected.host(), expected.port());
        RespClient b = new RespClient(actual.host(), actual.port());
        if (protocol == 3) {
            a.call("HELLO", "3");
            b.call("HELLO", "3");
        }
        return new RespClient[] {a, b};
    }

    /** Waits (for at most 5 seconds) until the target reports {@code want} blocked clients. */
    private static boolean awaitBlocked(RedisTarget target, long want) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            return BlockedClientsProbe.await(admin, want, java.time.Duration.ofSeconds(5));
        }
    }

    private static void reset(RedisTarget target) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
            admin.call("FUNCTION", "FLUSH", "SYNC"); // libraries survive FLUSHALL
        }
        awaitBlocked(target, 0); // clients of the previous scenario may still be closing
    }
}
