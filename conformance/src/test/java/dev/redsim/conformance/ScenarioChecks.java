package dev.redsim.conformance;

import dev.redsim.conformance.recording.RecordedReplies;
import dev.redsim.conformance.recording.Recording;
import dev.redsim.conformance.recording.StaleCheck;
import dev.redsim.conformance.scenario.LiveReplies;
import dev.redsim.conformance.scenario.ReplySource;
import dev.redsim.conformance.scenario.Scenario;
import dev.redsim.conformance.scenario.ScenarioRunner;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.fail;

/**
 * One scenario run under one protocol, as CommandScenariosTest runs it in each {@link
 * dev.redsim.conformance.recording.ReferenceMode}; failing with the message the build shows.
 */
final class ScenarioChecks {
    private ScenarioChecks() {
    }

    /**
     * The simulator against a live reference, and the recording against the same live replies: fails when the
     * simulator differs, when there is no recording, or when the recording is stale.
     */
    static ScenarioRunner.Result live(Scenario scenario, int protocol, RedisTarget reference, String referenceVersion,
                                      RedisTarget simulator, Optional<Recording> recording, ScenarioTally tally) {
        return live(scenario, protocol, new ScenarioRunner(reference, simulator), referenceVersion, recording, tally);
    }

    /** As above, with the runner given: one over two servers or over two clusters. */
    static ScenarioRunner.Result live(Scenario scenario, int protocol, ScenarioRunner runner, String referenceVersion,
                                      Optional<Recording> recording, ScenarioTally tally) {
        ScenarioRunner.Result result = runner.run(scenario, protocol);
        tally.add(scenario.file(), scenario.name(), result.compared(), referenceVersion);
        List<String> problems = new ArrayList<>();
        if (!result.passed()) {
            problems.add(differing(result, scenario, "real Redis"));
        }
        if (recording.isEmpty()) {
            problems.add(missing(scenario.file(), protocol));
        } else {
            List<String> stale = StaleCheck.differences(recording.get(), scenario, result.reference());
            if (!stale.isEmpty()) {
                problems.add("the recording scenarios/recorded/" + recording.get().fileName() + " is stale for '"
                        + scenario + "': the live Redis " + referenceVersion + " answers otherwise:\n"
                        + String.join("\n", stale) + "\n" + ScenarioRecordings.HOW_TO_RECORD);
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n\n", problems));
        }
        return result;
    }

    /** The simulator against the recording: fails without one, or when it does not fit the file or the simulator differs. */
    static ScenarioRunner.Result replay(Scenario scenario, int protocol, RedisTarget simulator,
                                        Optional<Recording> recording, ScenarioTally tally) {
        return replay(scenario, protocol, p -> new LiveReplies(simulator, p), recording, tally);
    }

    /** As above, with the simulator's side opened by {@code simulator} for the protocol: a server or a cluster. */
    static ScenarioRunner.Result replay(Scenario scenario, int protocol, IntFunction<ReplySource> simulator,
                                        Optional<Recording> recording, ScenarioTally tally) {
        Recording recorded = recording.orElseThrow(() -> new AssertionError(missing(scenario.file(), protocol)));
        RecordedReplies.mismatch(recorded, scenario).ifPresent(mismatch -> fail("the recording does not match the "
                + "scenario file (edited since it was recorded): " + mismatch + "\n" + ScenarioRecordings.HOW_TO_RECORD));
        ScenarioRunner.Result result;
        try (ReplySource want = RecordedReplies.of(recorded, scenario);
             ReplySource got = simulator.apply(protocol)) {
            result = ScenarioRunner.compare(scenario, protocol, want, got);
        }
        tally.add(scenario.file(), scenario.name(), result.compared(), recorded.redisVersion());
        if (!result.passed()) {
            fail(differing(result, scenario, "the recording of Redis " + recorded.redisVersion()));
        }
        return result;
    }

    static String differing(ScenarioRunner.Result result, Scenario scenario, String reference) {
        return result.differences().size() + " of " + result.compared() + " replies differ from " + reference + " in '"
                + scenario + "':\n" + String.join("\n", result.differences());
    }

    static String missing(String file, int protocol) {
        return "no recording scenarios/recorded/" + Recording.fileName(file, protocol) + " of " + file + " under RESP"
                + protocol + ": " + ScenarioRecordings.HOW_TO_RECORD;
    }
}
