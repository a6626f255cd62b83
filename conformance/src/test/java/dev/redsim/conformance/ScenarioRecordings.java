package dev.redsim.conformance;

import dev.redsim.conformance.recording.Recording;
import dev.redsim.conformance.recording.RecordingFile;
import dev.redsim.conformance.target.ReferenceVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the recordings of the scenario files live (scenarios/recorded/, strings.txt's as strings.resp2 and
 * strings.resp3), and how this build reads and writes them: read from the test classpath like the scenario files,
 * written into the sources, where the resources plugin copies them from on the next run.
 */
final class ScenarioRecordings {
    /** The one command that rewrites them, named in every message about a missing or stale recording. */
    static final String HOW_TO_RECORD = "re-record with conformance/scripts/record-replies [file.txt ...] "
            + "(needs redis-server " + ReferenceVersion.majorMinor(ReferenceVersion.UNDER_TEST) + ".x on PATH; see docs/conformance.md)";
    static final Path SOURCES = Path.of("src", "test", "resources", "scenarios", "recorded");
    private static final String RESOURCES = "scenarios/recorded/";

    private ScenarioRecordings() {
    }

    /** The recording of {@code scenarioFile} under {@code protocol}, if there is one; its version checked. */
    static Optional<Recording> load(String scenarioFile, int protocol) {
        String name = Recording.fileName(scenarioFile, protocol);
        try (InputStream in = ScenarioRecordings.class.getClassLoader().getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                return Optional.empty();
            }
            Recording recording = RecordingFile.parse(RESOURCES + name, scenarioFile,
                    new String(in.readAllBytes(), StandardCharsets.UTF_8));
            ReferenceVersion.check(recording.redisVersion(), ReferenceVersion.UNDER_TEST, ReferenceVersion.overridden(),
                    "the recording " + RESOURCES + name);
            return Optional.of(recording);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Recording recording) throws IOException {
        Files.createDirectories(SOURCES);
        Files.writeString(SOURCES.resolve(recording.fileName()), RecordingFile.write(recording,
                "conformance/scripts/record-replies (docs/conformance.md)"), StandardCharsets.UTF_8);
    }

    /** The recording files in the sources whose scenario file is not among {@code scenarioFiles}. */
    static List<Path> orphans(List<String> scenarioFiles) throws IOException {
        List<Path> orphans = new ArrayList<>();
        if (!Files.isDirectory(SOURCES)) {
            return orphans;
        }
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                boolean owned = scenarioFiles.stream().anyMatch(s -> name.equals(Recording.fileName(s, 2))
                        || name.equals(Recording.fileName(s, 3)));
                if (!owned) {
                    orphans.add(file);
                }
            }
        }
        return orphans;
    }
}
