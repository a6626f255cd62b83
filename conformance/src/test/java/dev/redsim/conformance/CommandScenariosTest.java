package dev.redsim.conformance;

import dev.redsim.conformance.recording.RecordedStep;
import dev.redsim.conformance.recording.Recording;
import dev.redsim.conformance.recording.ReferenceMode;
import dev.redsim.conformance.scenario.ClusterLiveReplies;
import dev.redsim.conformance.scenario.LiveReplies;
import dev.redsim.conformance.scenario.Scenario;
import dev.redsim.conformance.scenario.ScenarioFile;
import dev.redsim.conformance.scenario.ScenarioRunner;
import dev.redsim.conformance.scenario.StepReply;
import dev.redsim.conformance.target.ClusterTarget;
import dev.redsim.conformance.target.ReferenceVersion;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.conformance.target.SimulatedClusterTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every scenario under src/test/resources/scenarios runs on the simulator under RESP2 and RESP3, and every reply
 * must be byte-for-byte equal (with the declared normalisations) to real Redis's: a live redis-server's when there
 * is one, whose replies must also still equal the recordings in scenarios/recorded/ (else the recording is stale);
 * the recorded replies when there is none (outside CI). See {@link ReferenceMode}; -Dredsim.record=true rewrites
 * the recordings from the live server.
 */
class CommandScenariosTest {
    private static final ReferenceMode MODE = ReferenceMode.current();
    private static final ScenarioTally TALLY = new ScenarioTally();
    /** RECORD mode: the live reference's replies, by scenario file, protocol and scenario name. */
    private static final Map<String, Map<String, List<StepReply>>> TRANSCRIPTS = new ConcurrentHashMap<>();
    private static String liveVersion;

    @TestFactory
    List<DynamicNode> scenarios() throws URISyntaxException {
        List<DynamicNode> nodes = new ArrayList<>();
        for (String file : scenarioFiles()) {
            List<Scenario> scenarios = ScenarioFile.load("scenarios/" + file);
            Map<Integer, Optional<Recording>> recordings = new LinkedHashMap<>();
            for (int protocol : new int[] {2, 3}) {
                recordings.put(protocol, MODE == ReferenceMode.RECORD ? Optional.empty()
                        : ScenarioRecordings.load(file, protocol));
            }
            List<DynamicNode> tests = new ArrayList<>();
            for (Scenario scenario : scenarios) {
                for (int protocol : new int[] {2, 3}) {
                    Optional<Recording> recording = recordings.get(protocol);
                    tests.add(DynamicTest.dynamicTest(scenario.name() + " [RESP" + protocol + "]",
                            () -> run(scenario, protocol, recording)));
                }
            }
            for (int protocol : new int[] {2, 3}) {
                tests.add(MODE == ReferenceMode.RECORD
                        ? DynamicTest.dynamicTest("record " + Recording.fileName(file, protocol),
                                () -> record(file, protocol, scenarios))
                        : DynamicTest.dynamicTest(Recording.fileName(file, protocol) + " holds this file's scenarios",
                                () -> recordedScenariosAreTheFiles(file, protocol, scenarios, recordings.get(protocol))));
            }
            nodes.add(DynamicContainer.dynamicContainer(file, tests));
        }
        return nodes;
    }

    /** A recording whose scenario file is gone fails the build (a full recording run deletes it). */
    @Test
    void everyRecordingHasItsScenarioFile() throws IOException, URISyntaxException {
        List<Path> orphans = ScenarioRecordings.orphans(allScenarioFiles());
        if (MODE == ReferenceMode.RECORD && System.getProperty("redsim.scenarios", "").isBlank()) {
            for (Path orphan : orphans) {
                Files.delete(orphan);
            }
            return;
        }
        assertThat(orphans).as("recordings without a scenario file: delete them, or " + ScenarioRecordings.HOW_TO_RECORD)
                .isEmpty();
    }

    @AfterAll
    static void report() {
        if (TALLY.isEmpty()) {
            return;
        }
        String how = switch (MODE) {
            case LIVE -> "compared live with (and checked the recordings against) Redis";
            case RECORD -> "recorded into " + ScenarioRecordings.SOURCES + " from Redis";
            case REPLAY -> "checked against recordings of redis-server";
        };
        String why = MODE == ReferenceMode.REPLAY ? " (no redis-server on PATH and no REDIS_URL: replayed, not skipped)" : "";
        System.out.println("CommandScenariosTest: " + TALLY.summary(how) + why);
    }

    private static void run(Scenario scenario, int protocol, Optional<Recording> recording) {
        List<ClusterTarget> fresh = new ArrayList<>();
        try {
            run(scenario, protocol, recording, fresh);
        } finally {
            fresh.forEach(ClusterTarget::close);
        }
    }

    /** Runs a scenario; the clusters started for it alone ("@cluster N fresh") go into {@code fresh}. */
    private static void run(Scenario scenario, int protocol, Optional<Recording> recording, List<ClusterTarget> fresh) {
        switch (MODE) {
            case LIVE -> ScenarioChecks.live(scenario, protocol, runner(scenario, fresh), liveVersion(), recording,
                    TALLY);
            case RECORD -> {
                ScenarioRunner.Result result = runner(scenario, fresh).run(scenario, protocol);
                TRANSCRIPTS.computeIfAbsent(Recording.fileName(scenario.file(), protocol), f -> new ConcurrentHashMap<>())
                        .put(scenario.name(), result.reference());
                TALLY.add(scenario.file(), scenario.name(), result.compared(), liveVersion());
                if (!result.passed()) {
                    fail(ScenarioChecks.differing(result, scenario, "real Redis"));
                }
            }
            case REPLAY -> ScenarioChecks.replay(scenario, protocol, scenario.clusterMasters() == 0
                    ? p -> new LiveReplies(SharedTargets.simulator(), p)
                    : p -> new ClusterLiveReplies(simulatedCluster(scenario, fresh), p),
                    recording, TALLY);
            default -> throw new IllegalStateException(MODE.name());
        }
    }

    /** Real Redis against the simulator: two servers, or two clusters for a file with an "@cluster N" header. */
    private static ScenarioRunner runner(Scenario scenario, List<ClusterTarget> fresh) {
        if (scenario.clusterMasters() == 0) {
            return new ScenarioRunner(SharedTargets.reference(), SharedTargets.simulator());
        }
        if (!scenario.clusterFresh()) {
            return new ScenarioRunner(SharedTargets.referenceCluster(scenario.clusterMasters(),
                    scenario.clusterReplicas()), simulatedCluster(scenario, fresh));
        }
        ClusterTarget reference = Targets.referenceCluster(scenario.clusterMasters(), scenario.clusterReplicas());
        fresh.add(reference);
        return new ScenarioRunner(reference, simulatedCluster(scenario, fresh));
    }

    /** The simulated cluster a cluster scenario runs on: the shared one, or one of its own for a fresh scenario. */
    private static ClusterTarget simulatedCluster(Scenario scenario, List<ClusterTarget> fresh) {
        if (!scenario.clusterFresh()) {
            return SharedTargets.simulatedCluster(scenario.clusterMasters(), scenario.clusterReplicas());
        }
        ClusterTarget simulated = new SimulatedClusterTarget(scenario.clusterMasters(), scenario.clusterReplicas());
        fresh.add(simulated);
        return simulated;
    }

    /** RECORD mode, after the file's scenarios ran: writes the recording, if every scenario ran to its end. */
    private static void record(String file, int protocol, List<Scenario> scenarios) throws IOException {
        Map<String, List<StepReply>> transcripts = TRANSCRIPTS.getOrDefault(Recording.fileName(file, protocol), Map.of());
        Map<String, List<RecordedStep>> recorded = new LinkedHashMap<>();
        for (Scenario scenario : scenarios) {
            List<StepReply> transcript = transcripts.get(scenario.name());
            if (transcript == null) {
                fail("'" + scenario + "' did not run to its end under RESP" + protocol + ": "
                        + Recording.fileName(file, protocol) + " is not rewritten");
            }
            recorded.put(scenario.name(), transcript.stream().map(RecordedStep::of).toList());
        }
        ScenarioRecordings.write(new Recording(file, protocol, liveVersion(), recorded));
    }

    private static void recordedScenariosAreTheFiles(String file, int protocol, List<Scenario> scenarios,
                                                     Optional<Recording> recording) {
        if (recording.isEmpty()) {
            fail(ScenarioChecks.missing(file, protocol));
        }
        List<String> names = scenarios.stream().map(Scenario::name).toList();
        assertThat(List.copyOf(recording.get().scenarios().keySet()))
                .as(Recording.fileName(file, protocol) + " must hold the scenarios of " + file + ", in its order: "
                        + ScenarioRecordings.HOW_TO_RECORD)
                .isEqualTo(names);
    }

    private static synchronized String liveVersion() {
        if (liveVersion == null) {
            liveVersion = ReferenceVersion.of(SharedTargets.reference());
        }
        return liveVersion;
    }

    /** The scenario files, or those named by -Dredsim.scenarios=lists.txt,hashes.txt (quick iterations). */
    private static List<String> scenarioFiles() throws URISyntaxException {
        String only = System.getProperty("redsim.scenarios", "");
        List<String> selected = only.isBlank() ? List.of() : Arrays.asList(only.split(","));
        List<String> files = allScenarioFiles().stream().filter(f -> selected.isEmpty() || selected.contains(f)).toList();
        assertThat(files).as("scenario files (redsim.scenarios=%s)", only).isNotEmpty();
        return files;
    }

    private static List<String> allScenarioFiles() throws URISyntaxException {
        URL dir = CommandScenariosTest.class.getClassLoader().getResource("scenarios");
        String[] names = new File(dir.toURI()).list((d, name) -> name.endsWith(".txt"));
        Arrays.sort(names);
        return List.of(names);
    }
}
