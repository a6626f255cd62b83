package dev.redsim.simulator.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * getLong keeps parsed numbers (commands read their limits at every call): a change of the value, under its own
 * name or an alias, must be seen at the next read.
 */
class ConfigParsedLongTest {
    @Test
    void aChangedValueIsReadAgainUnderEveryName() {
        Config config = new Config();
        assertThat(config.getLong("hash-max-listpack-entries")).isEqualTo(512);
        assertThat(config.getLong("hash-max-ziplist-entries")).isEqualTo(512);

        config.apply("hash-max-ziplist-entries", "7");
        assertThat(config.getLong("hash-max-listpack-entries")).isEqualTo(7);
        assertThat(config.getLong("hash-max-ziplist-entries")).isEqualTo(7);

        config.setInternal("HASH-MAX-LISTPACK-ENTRIES", "9");
        assertThat(config.getLong("hash-max-listpack-entries")).isEqualTo(9);
        assertThat(config.getLong("hash-max-ziplist-entries")).isEqualTo(9);
    }
}
