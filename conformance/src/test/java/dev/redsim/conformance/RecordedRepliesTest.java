package dev.redsim.conformance;

import dev.redsim.conformance.recording.RecordedStep;
import dev.redsim.conformance.recording.Recording;
import dev.redsim.conformance.recording.RecordingFile;
import dev.redsim.conformance.scenario.Scenario;
import dev.redsim.conformance.scenario.ScenarioFile;
import dev.redsim.conformance.scenario.ScenarioRunner;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.simulator.intercept.CallOutcome;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests the recordings themselves, with a second simulator standing in for real Redis (so they run everywhere):
 * a recording made from a run replays; a tampered recording is stale in a live run and fails a replay; a simulator
 * that answers otherwise than the recording fails; a scenario edited since its recording, or one without a
 * recording, fails instead of being skipped.
 */
class RecordedRepliesTest {
    private static final String FILE = "mechanism.txt";
    private static final String SCENARIOS = """
            ### strings, a sorted reply and a blocked client
            SET k v
            GET k
            GET "bin\\x00ary"
            SADD s c a b
            @sort SMEMBERS s
            @ignore CLIENT ID
            @c2 @send BLPOP q 0
            @blocked 1
            RPUSH q x
            @c2 @recv
            @resp3 HGETALL nosuch

            ### a SET that a faulty simulator drops
            SET k abc
            GET k
            """;

    private static SimulatorTarget reference;

    @BeforeAll
    static void startReference() {
        reference = new SimulatorTarget();
    }

    @AfterAll
    static void stopReference() {
        reference.close();
    }

    @Test
    void aRecordingReadsBackAsWritten() {
        for (int protocol : new int[] {2, 3}) {
            Recording recording = record(protocol);
            String text = RecordingFile.write(recording, "(how to record)");
            Recording read = RecordingFile.parse("test", FILE, text);
            assertThat(read).isEqualTo(recording);
            assertThat(RecordingFile.write(read, "(how to record)")).isEqualTo(text);
        }
    }

    @Test
    void theFileShowsEachStepWithItsReply() {
        String text = RecordingFile.write(record(2), "(how to record)");
        assertThat(text).contains("redis_version: 7.0.15\nprotocol: RESP2\n")
                .contains("\nGET k\n  $1\n  v\n")
                .contains("\nGET \"bin\\x00ary\"\n  $-1\n")
                .contains("\n@sort SMEMBERS s\n  *3\n    $1\n    a\n    $1\n    b\n    $1\n    c\n") // kept sorted
                .contains("\n@ignore CLIENT ID\n@c2 @send BLPOP q 0\n@blocked 1\nRPUSH q x\n  :1\n@c2 @recv\n  *2\n")
                .doesNotContain("HGETALL"); // a RESP3-only step is not in the RESP2 recording
        assertThat(RecordingFile.write(record(3), "(how to record)")).contains("\n@resp3 HGETALL nosuch\n  %0\n");
    }

    @Test
    void aLiveRunAcceptsAnUpToDateRecording() {
        for (int protocol : new int[] {2, 3}) {
            Recording recording = reread(record(protocol));
            for (Scenario scenario : scenarios()) {
                ScenarioChecks.live(scenario, protocol, reference, "7.0.15", SharedTargets.simulator(),
                        Optional.of(recording), new ScenarioTally());
            }
        }
    }

    @Test
    void aLiveRunFailsOnATamperedRecordingNamingFileScenarioAndHowToRerecord() {
        Recording tampered = tamper(record(2), "\nGET k\n  $1\n  v\n", "\nGET k\n  $1\n  w\n");
        Scenario scenario = scenarios().get(0);
        assertThatThrownBy(() -> ScenarioChecks.live(scenario, 2, reference, "7.0.15", SharedTargets.simulator(),
                Optional.of(tampered), new ScenarioTally()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("the recording scenarios/recorded/mechanism.resp2 is stale for "
                        + "'mechanism.txt: strings, a sorted reply and a blocked client'")
                .hasMessageContaining("mechanism.txt:3 (RESP2) GET k")
                .hasMessageContaining("recorded (Redis 7.0.15): $1\\r\\nw\\r\\n")
                .hasMessageContaining("live reference:      $1\\r\\nv\\r\\n")
                .hasMessageContaining("conformance/scripts/record-replies");
    }

    @Test
    void aLiveRunFailsWhenTheScenarioChangedSinceItsRecording() {
        Recording recording = record(2);
        Scenario edited = ScenarioFile.parse(FILE, SCENARIOS.replace("GET k\nGET \"bin", "GET k2\nGET \"bin")).get(0);
        assertThatThrownBy(() -> ScenarioChecks.live(edited, 2, reference, "7.0.15", SharedTargets.simulator(),
                Optional.of(recording), new ScenarioTally()))
                .hasMessageContaining("is stale")
                .hasMessageContaining("differs from the scenario file at step 2 (line 3)")
                .hasMessageContaining("scenario file: GET k2")
                .hasMessageContaining("recording:     GET k");
    }

    @Test
    void aReplayComparesEveryReplyWithTheRecording() {
        ScenarioTally tally = new ScenarioTally();
        for (int protocol : new int[] {2, 3}) {
            Recording recording = reread(record(protocol));
            for (Scenario scenario : scenarios()) {
                ScenarioRunner.Result result = ScenarioChecks.replay(scenario, protocol, SharedTargets.simulator(),
                        Optional.of(recording), tally);
                assertThat(result.passed()).isTrue();
            }
        }
        // RESP2: 8 + 2 compared steps (SET, GET, GET, SADD, SMEMBERS, @blocked, RPUSH, @recv); RESP3 adds HGETALL
        assertThat(tally.summary("checked against")).isEqualTo(
                "2 scenarios (4 runs, RESP2 and RESP3) / 21 steps checked against 7.0.15");

        Recording tampered = tamper(record(2), "\nRPUSH q x\n  :1\n", "\nRPUSH q x\n  :2\n");
        assertThatThrownBy(() -> ScenarioChecks.replay(scenarios().get(0), 2, SharedTargets.simulator(),
                Optional.of(tampered), new ScenarioTally()))
                .hasMessageContaining("1 of 8 replies differ from the recording of Redis 7.0.15")
                .hasMessageContaining("mechanism.txt:10 (RESP2) RPUSH q x")
                .hasMessageContaining("recording:    :2\\r\\n")
                .hasMessageContaining("simulator:    :1\\r\\n");
    }

    @Test
    void aReplayFailsWhenTheSimulatorAnswersOtherwise() {
        Recording recording = record(2);
        try (SimulatorTarget faulty = new SimulatorTarget()) {
            // a lost write acknowledged with +OK, through the simulator's public command interceptor
            faulty.simulator().intercept(call -> call.is("set") && call.argCount() >= 2
                    && call.argString(1).equals("abc") ? CallOutcome.ok() : CallOutcome.proceed());
            assertThatThrownBy(() -> ScenarioChecks.replay(scenarios().get(1), 2, faulty, Optional.of(recording),
                    new ScenarioTally()))
                    .hasMessageContaining("mechanism.txt:16 (RESP2) GET k")
                    .hasMessageContaining("recording:    $3\\r\\nabc\\r\\n");
        }
    }

    @Test
    void aScenarioWithoutARecordingFailsRatherThanSkips() {
        assertThatThrownBy(() -> ScenarioChecks.replay(scenarios().get(0), 2, SharedTargets.simulator(),
                Optional.empty(), new ScenarioTally()))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no recording scenarios/recorded/mechanism.resp2 of mechanism.txt under RESP2")
                .hasMessageContaining("conformance/scripts/record-replies");
        Recording withoutSecond = new Recording(FILE, 2, "7.0.15",
                Map.of(scenarios().get(0).name(), record(2).scenarios().get(scenarios().get(0).name())));
        assertThatThrownBy(() -> ScenarioChecks.replay(scenarios().get(1), 2, SharedTargets.simulator(),
                Optional.of(withoutSecond), new ScenarioTally()))
                .hasMessageContaining("'a SET that a faulty simulator drops' is not in mechanism.resp2");
    }

    private static List<Scenario> scenarios() {
        return ScenarioFile.parse(FILE, SCENARIOS);
    }

    /** The recording a recording run makes, with the reference simulator standing in for Redis. */
    private static Recording record(int protocol) {
        Map<String, List<RecordedStep>> scenarios = new LinkedHashMap<>();
        ScenarioRunner runner = new ScenarioRunner(reference, SharedTargets.simulator());
        for (Scenario scenario : scenarios()) {
            ScenarioRunner.Result result = runner.run(scenario, protocol);
            assertThat(result.differences()).isEmpty();
            scenarios.put(scenario.name(), result.reference().stream().map(RecordedStep::of).toList());
        }
        return new Recording(FILE, protocol, "7.0.15", scenarios);
    }

    private static Recording reread(Recording recording) {
        return RecordingFile.parse("test", FILE, RecordingFile.write(recording, "(how to record)"));
    }

    /** The recording with its file's text edited, as someone could edit it by hand. */
    private static Recording tamper(Recording recording, String from, String to) {
        String text = RecordingFile.write(recording, "(how to record)");
        assertThat(text).contains(from);
        return RecordingFile.parse("tampered", FILE, text.replace(from, to));
    }
}
