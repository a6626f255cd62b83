package dev.redsim.simulator.version;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** What depends on the imitated version lives in RedisVersion: no other main source names it in code. */
class VersionSeamTest {
    private static final RedisVersion VERSION = RedisVersion.IMITATED;

    @Test
    void noVersionLiteralOutsideTheSeam() throws IOException {
        String folder = Path.of(VERSION.resourceFolder()).getFileName().toString(); // "redis-7.0"
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (file.getFileName().toString().equals("RedisVersion.java")) {
                    continue;
                }
                String code = Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
                if (code.contains(VERSION.version()) || code.contains(folder)
                        || code.contains("\"" + VERSION.majorMinor() + "\"")) {
                    offenders.add(file.toString());
                }
            }
        }
        assertThat(offenders).as("sources naming the imitated version in code").isEmpty();
    }

    @Test
    void theDataSetsOfTheVersionAreThere() {
        for (String resource : List.of(VERSION.commandTable(), VERSION.configDefaults(), VERSION.configTypes())) {
            assertThat(RedisVersion.class.getResource(resource)).as(resource).isNotNull();
        }
    }

    @Test
    void versionNumberAsRedisComputesIt() {
        assertThat(new RedisVersion("7.0.15", "/x/").number()).isEqualTo(0x07000f);
        assertThat(new RedisVersion("7.2.4", "/x/").majorMinor()).isEqualTo("7.2");
    }
}
