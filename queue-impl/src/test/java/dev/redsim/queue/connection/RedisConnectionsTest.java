package dev.redsim.queue.connection;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The hash tag rule and what RedisConnections accepts; no server needed (nothing here connects). */
class RedisConnectionsTest {
    @Test
    void aHashTagIsTheTextBetweenTheFirstOpeningBraceAndTheNextClosingOne() {
        assertThat(HashTag.of("{emails}:")).isEqualTo("emails");
        assertThat(HashTag.of("feed.ids:{orders}")).isEqualTo("orders");
        assertThat(HashTag.of("a{b}{c}")).isEqualTo("b");
        assertThat(HashTag.of("a}{b}")).isEqualTo("b");
        assertThat(HashTag.of("{}emails")).as("empty: the whole key hashes").isNull();
        assertThat(HashTag.of("{emails")).isNull();
        assertThat(HashTag.of("emails")).isNull();
        assertThat(HashTag.of("")).isNull();
    }

    @Test
    void onOneServerNamesNeedNoHashTag() {
        try (JedisPool pool = new JedisPool("127.0.0.1", 1)) {
            RedisConnections connections = RedisConnections.of(pool);
            assertThat(connections.clustered()).isFalse();
            connections.requireHashTag("Conveyor key prefix", ""); // the spec's names, as before
        }
    }

    @Test
    void aUnifiedJedisThatIsNeitherAClusterNorAPooledClientIsRefused() {
        try (UnifiedJedis plain = new UnifiedJedis(new HostAndPort("127.0.0.1", 1))) {
            assertThatThrownBy(() -> RedisConnections.of(plain)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("JedisCluster");
        }
    }
}
