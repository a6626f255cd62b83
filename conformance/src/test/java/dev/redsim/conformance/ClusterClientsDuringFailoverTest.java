package dev.redsim.conformance;

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
import org.redisson.config.ReadMode;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jedis's JedisCluster, Lettuce's RedisClusterClient (topology refresh on MOVED) and Redisson in cluster mode keep
 * working correctly through a failover, on a simulated and on a real cluster of 3 masters with a replica each: keys
 * written on every master before master 0 fails over to its replica read back their values after it (the replica had
 * them all: a manual failover waits for it to catch up), counters go on from where they were, new keys are written,
 * and the clients meet no error (they follow MOVED to the new master themselves). Then the former master, now a
 * replica, holds the same data, as a READONLY client sees.
 */
class ClusterClientsDuringFailoverTest {
    private static final int KEYS = 90;

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void jedisClusterFollowsAFailover(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which, 1);
             JedisCluster jedis = new JedisCluster(Set.of(new HostAndPort(cluster.host(), cluster.ports().get(0))))) {
            workThroughFailover(cluster, "jedis", KeyValueClient.of(jedis));
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void lettuceClusterClientFollowsAFailover(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which, 1)) {
            RedisClusterClient lettuce = RedisClusterClient.create(RedisURI.create(cluster.host(), cluster.ports().get(0)));
            lettuce.setOptions(ClusterClientOptions.builder().topologyRefreshOptions(
                    ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build()).build());
            try (StatefulRedisClusterConnection<String, String> connection = lettuce.connect()) {
                RedisAdvancedClusterCommands<String, String> redis = connection.sync();
                workThroughFailover(cluster, "lettuce", KeyValueClient.of(redis));
                // its view of the topology, refreshed from the nodes (an adaptive refresh runs in the background
                // and at most once per trigger timeout), has node 3 serving slot 0
                lettuce.refreshPartitions();
                assertThat(connection.getPartitions().getPartitionBySlot(0).getUri().getPort())
                        .isEqualTo(cluster.ports().get(3));
            } finally {
                lettuce.shutdown();
            }
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void redissonFollowsAFailover(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which, 1)) {
            Config config = new Config();
            config.useClusterServers().addNodeAddress("redis://" + cluster.host() + ":" + cluster.ports().get(0))
                    // reads from the masters: a real replica may lag behind an acknowledged write (asynchronous)
                    .setReadMode(ReadMode.MASTER)
                    // Redisson learns of a failover by its topology scan (a MOVED to a node it knows as a replica
                    // waits for it, retrying): scanning each second keeps that within its retries
                    .setScanInterval(1000)
                    .setMasterConnectionMinimumIdleSize(1).setSlaveConnectionMinimumIdleSize(1);
            RedissonClient redisson = Redisson.create(config);
            try {
                workThroughFailover(cluster, "redisson", KeyValueClient.of(redisson));
            } finally {
                redisson.shutdown();
            }
        }
    }

    private static void workThroughFailover(ClusterUnderTest cluster, String prefix, KeyValueClient client) {
        for (int i = 0; i < KEYS; i++) {
            client.set(prefix + ":key" + i, "value" + i);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(client.incr(prefix + ":counter" + i)).isEqualTo(1);
        }
        // at least one key of the loop lives on master 0, which fails over (90 keys over 3 masters)
        assertThat(countOnMaster0(cluster, prefix)).isPositive();
        cluster.failover(0);
        for (int i = 0; i < KEYS; i++) {
            assertThat(client.get(prefix + ":key" + i)).as("%s key %d after the failover", prefix, i)
                    .isEqualTo("value" + i);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(client.incr(prefix + ":counter" + i)).isEqualTo(2);
        }
        for (int i = 0; i < KEYS; i++) {
            client.set(prefix + ":after" + i, "new" + i);
        }
        for (int i = 0; i < KEYS; i++) {
            assertThat(client.get(prefix + ":after" + i)).isEqualTo("new" + i);
        }
        // the new master holds every key of slot range 0-5460; its former master, now its replica, too
        try (Jedis promoted = new Jedis(cluster.host(), cluster.ports().get(3));
             Jedis former = new Jedis(cluster.host(), cluster.ports().get(0))) {
            assertThat(promoted.role().get(0)).isEqualTo("master");
            assertThat(former.role().get(0)).isEqualTo("slave");
            long keys = promoted.dbSize();
            assertThat(keys).isEqualTo(countOnMaster0(cluster, prefix) + countAfterOnMaster0(cluster, prefix));
            former.readonly();
            long deadline = System.currentTimeMillis() + 10_000;
            while (former.dbSize() != keys && System.currentTimeMillis() < deadline) {
                // a real replica applies the stream asynchronously: poll it by round trips, bounded
            }
            assertThat(former.dbSize()).isEqualTo(keys);
            for (int i = 0; i < KEYS; i++) {
                String key = prefix + ":key" + i;
                if (slotOnMaster0(key)) {
                    assertThat(former.get(key)).isEqualTo("value" + i);
                }
            }
        }
    }

    private static boolean slotOnMaster0(String key) {
        return dev.redsim.simulator.util.KeyHashSlot.of(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)) <= 5460;
    }

    private static long countOnMaster0(ClusterUnderTest cluster, String prefix) {
        long count = 0;
        for (int i = 0; i < KEYS; i++) {
            count += slotOnMaster0(prefix + ":key" + i) ? 1 : 0;
        }
        for (int i = 0; i < 3; i++) {
            count += slotOnMaster0(prefix + ":counter" + i) ? 1 : 0;
        }
        return count;
    }

    private static long countAfterOnMaster0(ClusterUnderTest cluster, String prefix) {
        long count = 0;
        for (int i = 0; i < KEYS; i++) {
            count += slotOnMaster0(prefix + ":after" + i) ? 1 : 0;
        }
        return count;
    }
}
