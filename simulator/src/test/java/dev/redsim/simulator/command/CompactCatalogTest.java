package dev.redsim.simulator.command;

import dev.redsim.simulator.version.RedisVersion;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compact command table the build writes (decision 0035) says what commands.json says: every COMMAND INFO field
 * of every command and subcommand, and the same docs (read from the JSON when first asked for).
 */
class CompactCatalogTest {
    private static String json() throws IOException {
        try (InputStream in = CompactCatalogTest.class.getResourceAsStream(RedisVersion.IMITATED.commandTable())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theBuildWritesTheCompactFormBesideTheJson() {
        String json = RedisVersion.IMITATED.commandTable();
        String compact = json.substring(0, json.length() - ".json".length()) + ".bin";
        assertThat(CompactCatalogTest.class.getResource(compact))
                .as("the process-classes step (CompactCatalogWriter) wrote " + compact)
                .isNotNull();
    }

    @Test
    void theCatalogReadFromTheCompactFormEqualsTheJsons() throws IOException {
        CommandCatalog fromJson = CommandCatalog.fromJson(json());
        CommandCatalog fromResources = CommandCatalog.redis70(); // the compact form, as a start reads it
        assertThat(fromResources.redisVersion()).isEqualTo(fromJson.redisVersion());
        assertThat(infoOf(fromResources.all())).isEqualTo(infoOf(fromJson.all()));
        assertThat(fromResources.describe("config|get").docs()).isEqualTo(fromJson.describe("config|get").docs());
        assertThat(fromResources.describe("xadd").docs()).isEqualTo(fromJson.describe("xadd").docs());
    }

    @Test
    void writingAndReadingKeepsEveryField() throws IOException {
        CommandCatalog fromJson = CommandCatalog.fromJson(json());
        byte[] compact = CompactCatalog.write(fromJson.redisVersion(), fromJson.all());
        // docs of a resource that does not exist: reading them would throw (they are not read with the compact form)
        CommandCatalog read = CompactCatalog.read(compact, new CatalogDocs("/no/such/commands.json"));
        assertThat(infoOf(read.all())).isEqualTo(infoOf(fromJson.all()));
        assertThat(infoOf(read.all())).hasSize(fromJson.all().size()
                + fromJson.all().stream().mapToInt(c -> c.subcommands().size()).sum());
        assertThat(compact.length).isLessThan(json().length() / 5);
    }

    /** Every description and subcommand, each with its fields but the docs (two catalogs own two docs readers). */
    private static List<List<Object>> infoOf(Iterable<CommandDescription> commands) {
        List<List<Object>> info = new ArrayList<>();
        for (CommandDescription c : commands) {
            info.add(List.of(c.fullName(), String.valueOf(c.container()), c.arity(), c.flags(), c.flagNames(),
                    c.firstKey(), c.lastKey(), c.keyStep(), c.aclCategories(), c.tips(), c.keySpecs(),
                    List.copyOf(c.subcommands().keySet())));
            info.addAll(infoOf(c.subcommands().values()));
        }
        return info;
    }
}
