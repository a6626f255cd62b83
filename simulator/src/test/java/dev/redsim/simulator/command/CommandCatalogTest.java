package dev.redsim.simulator.command;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command table resource reads into what Redis 7.0.15 reported about itself. */
class CommandCatalogTest {
    private final CommandCatalog catalog = CommandCatalog.redis70();

    @Test
    void holdsEveryCommandOfRedisIncludingThoseTheSimulatorLacks() {
        assertThat(catalog.redisVersion()).isEqualTo("7.0.15");
        assertThat(catalog.all()).hasSize(240); // COMMAND COUNT of redis-server 7.0.15
        assertThat(catalog.describe("xadd")).isNotNull();
        assertThat(catalog.describe("GEORADIUS").docs().docFlags()).containsExactly("deprecated");
        assertThat(catalog.describe("nosuch")).isNull();
        assertThat(catalog.describe("config|nosuch")).isNull();
    }

    @Test
    void readsInfoAndDocsFields() {
        CommandDescription lpush = catalog.describe("lpush");
        assertThat(lpush.arity()).isEqualTo(-3);
        assertThat(lpush.flagNames()).containsExactly("write", "denyoom", "fast");
        assertThat(lpush.has(CommandFlag.DENYOOM)).isTrue();
        assertThat(lpush.aclCategories()).containsExactly("@write", "@list", "@fast");
        assertThat(lpush.docs().summary()).isEqualTo("Prepend one or multiple elements to a list");
        assertThat(lpush.docs().group()).isEqualTo("list");
        assertThat(lpush.docs().history()).containsExactly(
                new CommandDocs.HistoryEntry("2.4.0", "Accepts multiple `element` arguments."));
        assertThat(lpush.docs().arguments()).extracting(CommandArgument::name).containsExactly("key", "element");
        assertThat(lpush.docs().arguments().get(0).keySpecIndex()).isZero();
        assertThat(lpush.docs().arguments().get(1).has("multiple")).isTrue();
    }

    @Test
    void readsKeySpecs() {
        List<KeySpec> specs = catalog.describe("zunionstore").keySpecs();
        assertThat(specs).containsExactly(
                new KeySpec(null, List.of("OW", "update"), new KeySpec.AtIndex(1), new KeySpec.Range(0, 1, 0)),
                new KeySpec(null, List.of("RO", "access"), new KeySpec.AtIndex(2), new KeySpec.Keynum(0, 1, 1)));
        KeySpec xread = catalog.describe("xread").keySpecs().get(0);
        assertThat(xread.beginSearch()).isEqualTo(new KeySpec.AfterKeyword("STREAMS", 1));
        assertThat(xread.findKeys()).isEqualTo(new KeySpec.Range(-1, 1, 2));
        assertThat(catalog.describe("sort").keySpecs().get(1).beginSearch()).isInstanceOf(KeySpec.UnknownStart.class);
    }

    @Test
    void readsSubcommands() {
        CommandDescription config = catalog.describe("config");
        assertThat(config.subcommands().keySet()).containsExactly("get", "help", "resetstat", "rewrite", "set");
        CommandDescription get = catalog.describe("CONFIG|GET");
        assertThat(get.fullName()).isEqualTo("config|get");
        assertThat(get.container()).isEqualTo("config");
        assertThat(get.arity()).isEqualTo(-3);
    }
}
