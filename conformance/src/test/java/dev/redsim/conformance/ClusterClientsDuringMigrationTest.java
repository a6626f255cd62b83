package dev.redsim.conformance;

import dev.redsim.simulator.util.KeyHashSlot;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jedis's JedisCluster, Lettuce's RedisClusterClient and Redisson in cluster mode keep reading and writing correctly
 * while a slot they use moves to another node, on a simulated and on a real 3-master cluster (moved with the same
 * commands, see {@link SlotMove}): between batches of migrated keys every key of the slot reads back its value (the
 * moved ones after -ASK, ASKING on the target), counters of the slot are incremented wherever they are, and new keys
 * are created; once the slot has moved, the clients follow -MOVED to the new owner, which holds every key.
 */
class ClusterClientsDuringMigrationTest {
    private static final int KEYS = 60;
    private static final int BATCH = 7;

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void clientsKeepWorkingWhileASlotMoves(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which)) {
            HostAndPort first = new HostAndPort(cluster.host(), cluster.ports().get(0));
            try (JedisCluster jedis = new JedisCluster(Set.of(first))) {
                workWhileMoving(cluster, "{jedis}", KeyValueClient.of(jedis));
            }
            RedisClusterClient lettuce = RedisClusterClient.create(RedisURI.create(cluster.host(), cluster.ports().get(0)));
            lettuce.setOptions(ClusterClientOptions.builder().topologyRefreshOptions(
                    ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build()).build());
            try (StatefulRedisClusterConnection<String, String> connection = lettuce.connect()) {
                RedisAdvancedClusterCommands<String, String> redis = connection.sync();
                workWhileMoving(cluster, "{lettuce}", KeyValueClient.of(redis));
            } finally {
                lettuce.shutdown();
            }
            Config config = new Config();
            config.useClusterServers().addNodeAddress("redis://" + cluster.host() + ":" + cluster.ports().get(0))
                    .setScanInterval(60_000) // no rescans meanwhile: it must follow the redirections themselves
                    .setMasterConnectionMinimumIdleSize(1).setSlaveConnectionMinimumIdleSize(1);
            RedissonClient redisson = Redisson.create(config);
            try {
                workWhileMoving(cluster, "{redisson}", KeyValueClient.of(redisson));
            } finally {
                redisson.shutdown();
            }
        }
    }

    private static void workWhileMoving(ClusterUnderTest cluster, String tag, KeyValueClient client) {
        int slot = KeyHashSlot.of(tag.getBytes(StandardCharsets.UTF_8));
        int source = slot >= 10923 ? 2 : slot >= 5461 ? 1 : 0;
        int target = (source + 1) % 3;
        for (int i = 0; i < KEYS; i++) {
            client.set(tag + "key" + i, "value" + i);
        }
        SlotMove move = cluster.startSlotMove(slot, target);
        long increments = 0;
        int rounds = 0;
        int moved;
        do {
            moved = move.migrateKeys(BATCH);
            for (int i = 0; i < KEYS; i++) {
                assertThat(client.get(tag + "key" + i)).as("%s key %d in round %d", tag, i, rounds).isEqualTo("value" + i);
            }
            assertThat(client.incr(tag + "counter")).isEqualTo(++increments);
            client.set(tag + "new" + rounds, "created in round " + rounds);
            rounds++;
        } while (moved > 0);
        assertThat(rounds).as("batches for %d keys", KEYS).isGreaterThan(KEYS / BATCH);
        move.finish();
        for (int i = 0; i < KEYS; i++) {
            assertThat(client.get(tag + "key" + i)).isEqualTo("value" + i);
        }
        for (int round = 0; round < rounds; round++) {
            assertThat(client.get(tag + "new" + round)).isEqualTo("created in round " + round);
        }
        assertThat(client.incr(tag + "counter")).isEqualTo(increments + 1);
        // every key of the slot is on the target now, none left on the source
        try (Jedis owner = new Jedis(cluster.host(), cluster.ports().get(target));
             Jedis former = new Jedis(cluster.host(), cluster.ports().get(source))) {
            assertThat(owner.clusterCountKeysInSlot(slot)).isEqualTo(KEYS + rounds + 1);
            assertThat(former.clusterCountKeysInSlot(slot)).isZero();
        }
    }
}
