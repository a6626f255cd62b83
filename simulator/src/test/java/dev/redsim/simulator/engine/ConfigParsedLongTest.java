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

    /** The encoding limits commands ask for at every call are kept until a change, then read again. */
    @Test
    void theEncodingLimitsFollowEveryChange() {
        Config config = new Config();
        assertThat(config.hashMaxListpackEntries()).isEqualTo(512);
        assertThat(config.setMaxIntsetEntries()).isEqualTo(512);
        config.apply("hash-max-ziplist-entries", "7");
        assertThat(config.hashMaxListpackEntries()).isEqualTo(7);
        config.apply("set-max-intset-entries", "3");
        assertThat(config.setMaxIntsetEntries()).isEqualTo(3);
        assertThat(config.hashMaxListpackEntries()).isEqualTo(7);
        config.setInternal("zset-max-listpack-value", "5");
        assertThat(config.zsetMaxListpackValue()).isEqualTo(5);
        assertThat(config.listMaxListpackSize()).isEqualTo(-2);
    }
}
