package dev.redsim.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.util.JedisClusterCRC16;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Jedis's cluster client on a simulated and on a real 3-master cluster: it finds the nodes from one of them, reads
 * and writes keys of every node, runs a transaction within one hash tag on the node serving it, and meets the
 * server's own MOVED and CROSSSLOT where it sends a command to the wrong node or with keys of two slots.
 */
class JedisClusterClientTest {
    private static final int KEYS = 2000;

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void readsAndWritesAcrossEverySlotOwner(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which);
             JedisCluster jedis = new JedisCluster(Set.of(new HostAndPort(cluster.host(), cluster.ports().get(0))))) {
            for (int i = 0; i < KEYS; i++) {
                jedis.set("key:" + i, "value:" + i);
                jedis.hset("hash:" + i, "field", Integer.toString(i));
            }
            for (int i = 0; i < KEYS; i++) {
                assertThat(jedis.get("key:" + i)).isEqualTo("value:" + i);
                assertThat(jedis.hincrBy("hash:" + i, "field", 1)).isEqualTo(i + 1);
            }
            long total = 0;
            for (int port : cluster.ports()) {
                try (Jedis node = new Jedis(cluster.host(), port)) {
                    long size = node.dbSize();
                    assertThat(size).as("keys on the node at %d", port).isGreaterThan(KEYS / 2);
                    total += size;
                }
            }
            assertThat(total).isEqualTo(2L * KEYS);
            assertThat(jedis.getClusterNodes()).hasSize(3);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void transactionWithinOneHashTag(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which);
             JedisCluster jedis = new JedisCluster(Set.of(new HostAndPort(cluster.host(), cluster.ports().get(0))))) {
            jedis.set("{account}:alice", "100");
            jedis.set("{account}:bob", "0");
            try (Connection connection = jedis.getConnectionFromSlot(JedisClusterCRC16.getSlot("{account}"))) {
                Transaction transaction = new Transaction(connection);
                transaction.decrBy("{account}:alice", 30);
                transaction.incrBy("{account}:bob", 30);
                transaction.mget("{account}:alice", "{account}:bob");
                List<Object> results = transaction.exec();
                assertThat(results).containsExactly(70L, 30L, List.of("70", "30"));
            }
            assertThat(jedis.mget("{account}:alice", "{account}:bob")).containsExactly("70", "30");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void movedAndCrossSlotFromTheServer(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which);
             Jedis first = new Jedis(cluster.host(), cluster.ports().get(0))) {
            List<String> elsewhere = new ArrayList<>();
            for (int i = 0; elsewhere.size() < 2; i++) {
                if (JedisClusterCRC16.getSlot("k" + i) > 10922) {
                    elsewhere.add("k" + i);
                }
            }
            int slot = JedisClusterCRC16.getSlot(elsewhere.get(0));
            assertThatThrownBy(() -> first.get(elsewhere.get(0)))
                    .isInstanceOfSatisfying(JedisMovedDataException.class, moved -> {
                        assertThat(moved.getSlot()).isEqualTo(slot);
                        assertThat(moved.getTargetNode()).isEqualTo(new HostAndPort(cluster.host(), cluster.ports().get(2)));
                    });
            assertThatThrownBy(() -> first.mget("{a}1", "{b}1"))
                    .isInstanceOf(JedisDataException.class)
                    .hasMessage("CROSSSLOT Keys in request don't hash to the same slot");
            assertThatThrownBy(() -> first.select(1))
                    .hasMessage("ERR SELECT is not allowed in cluster mode");
        }
    }
}
