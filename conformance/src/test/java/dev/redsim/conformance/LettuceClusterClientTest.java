package dev.redsim.conformance;

import io.lettuce.core.RedisURI;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce's RedisClusterClient on a simulated and on a real 3-master cluster: it reads the topology (CLUSTER NODES)
 * from one node, writes and reads keys of every node (MGET and MSET split by slot on the client), and runs a
 * transaction within one hash tag on the node serving it.
 */
class LettuceClusterClientTest {
    private static final int KEYS = 1000;

    private static RedisClusterClient client(ClusterUnderTest cluster) {
        RedisClusterClient client = RedisClusterClient.create(RedisURI.create(cluster.host(), cluster.ports().get(0)));
        client.setOptions(ClusterClientOptions.builder()
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder().enableAllAdaptiveRefreshTriggers().build())
                .build());
        return client;
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void readsAndWritesAcrossTheCluster(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which)) {
            RedisClusterClient client = client(cluster);
            try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
                RedisAdvancedClusterCommands<String, String> redis = connection.sync();
                assertThat(connection.getPartitions().size()).isEqualTo(3);
                Map<String, String> values = new HashMap<>();
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < KEYS; i++) {
                    values.put("key:" + i, "value:" + i);
                    keys.add("key:" + i);
                }
                assertThat(redis.mset(values)).isEqualTo("OK"); // split by slot, sent to each owner
                for (int i = 0; i < KEYS; i += 7) {
                    assertThat(redis.get("key:" + i)).isEqualTo("value:" + i);
                    assertThat(redis.incr("counter:" + i)).isEqualTo(1);
                }
                List<String> read = redis.mget(keys.toArray(new String[0])).stream().map(kv -> kv.getValue()).toList();
                assertThat(read).hasSize(KEYS).allMatch(v -> v.startsWith("value:"));
                assertThat(redis.dbsize()).isEqualTo(KEYS + (KEYS + 6) / 7); // summed over the masters
            } finally {
                client.shutdown();
            }
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void transactionWithinOneHashTag(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which)) {
            RedisClusterClient client = client(cluster);
            try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
                RedisClusterNode owner = connection.getPartitions().getPartitionBySlot(SlotHash.getSlot("{cart}"));
                RedisCommands<String, String> node = connection.getConnection(owner.getNodeId()).sync();
                node.multi();
                node.rpush("{cart}:items", "apple", "pear");
                node.hset("{cart}:totals", "count", "2");
                node.lrange("{cart}:items", 0, -1);
                TransactionResult result = node.exec();
                assertThat(result.wasDiscarded()).isFalse();
                assertThat(result.<Long>get(0)).isEqualTo(2L);
                assertThat(result.<List<String>>get(2)).containsExactly("apple", "pear");
                assertThat(connection.sync().hget("{cart}:totals", "count")).isEqualTo("2");
            } finally {
                client.shutdown();
            }
        }
    }
}
