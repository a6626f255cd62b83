package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A master that dies on its own, on a simulated cluster and on a real one (3 masters with a replica each, every node
 * with cluster-node-timeout 1000 ms), the same sequence and the same logged replies: node 0 is killed (the real
 * redis-server by its PID with SIGKILL; the simulated node by {@link RedisCluster#stop}), the others mark it failed,
 * its replica (node 3) wins the election and serves its slots with the next epoch, and CLUSTER NODES / INFO / SHARDS /
 * SLOTS then say so alike. A JedisCluster that wrote keys on every master before the crash reads them all back after
 * it, counters go on, and new writes land: the client follows the topology change by itself. Where the real cluster
 * works in the background (timeouts, gossip, the election) the sequence polls it by round trips, bounded; the
 * simulated cluster's clock is frozen and moved 100 ms per poll instead, so nothing sleeps on either.
 */
class ClusterNodeFailureConformanceTest {
    private static final String NODE_TIMEOUT_MS = "1000";
    private static final int KEYS = 90;

    /** How a sequence crashes a node and lets the cluster's time pass between two polls. */
    private interface Faults {
        void kill(int node);

        /** Between two polls: the simulated cluster's clock moves 100 ms; a real cluster's moves by itself. */
        void tick();
    }

    @Test
    void aMasterThatDiesIsReplacedByItsReplicaAsOnARealCluster() {
        List<String> real = onRealCluster();
        List<String> simulated = onSimulatedCluster();
        assertThat(simulated).containsExactlyElementsOf(real);
    }

    private static List<String> onRealCluster() {
        try (RedisClusterTarget cluster = Targets.referenceCluster(3, 1, "--cluster-node-timeout", NODE_TIMEOUT_MS);
             ClusterNodesSession session = new ClusterNodesSession("127.0.0.1",
                     cluster.nodes().stream().map(RedisTarget::port).toList());
             JedisCluster jedis = new JedisCluster(Set.of(new HostAndPort("127.0.0.1", session.port(1))))) {
            sequence(session, jedis, new Faults() {
                @Override
                public void kill(int node) {
                    cluster.kill(node);
                }

                @Override
                public void tick() {
                }
            });
            return session.log();
        }
    }

    private static List<String> onSimulatedCluster() {
        try (RedisCluster cluster = RedisSimulator.cluster().replicas(1)
                .config("cluster-node-timeout", NODE_TIMEOUT_MS).start();
             ClusterNodesSession session = new ClusterNodesSession(cluster.host(), cluster.ports());
             JedisCluster jedis = new JedisCluster(Set.of(new HostAndPort(cluster.host(), session.port(1))))) {
            cluster.freezeTime();
            sequence(session, jedis, new Faults() {
                @Override
                public void kill(int node) {
                    cluster.stop(node);
                }

                @Override
                public void tick() {
                    cluster.advanceTime(Duration.ofMillis(100));
                }
            });
            return session.log();
        }
    }

    private static void sequence(ClusterNodesSession s, JedisCluster jedis, Faults faults) {
        for (int i = 0; i < KEYS; i++) {
            jedis.set("key" + i, "value" + i);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(jedis.incr("counter" + i)).isEqualTo(1);
        }
        // every write is on the replicas before the crash (a real replica is asynchronous: a crash may lose writes)
        ClusterReplicasConformanceTest.awaitCaughtUp(s);
        s.step(1, "CLUSTER", "INFO");

        faults.kill(0);
        String id0 = s.id(0);
        String id3 = s.id(3);
        awaitTicking(s, faults, "node 1 to mark node 0 failed", () -> flags(s, 1, id0).equals("master,fail"));
        awaitTicking(s, faults, "node 3 to take node 0's slots on every live node", () -> {
            for (int node = 1; node < 6; node++) {
                String line = line(s, node, id3);
                if (!line.contains("master") || !line.endsWith(" 0-5460")
                        || !s.client(node).call("CLUSTER", "INFO").text().contains("cluster_state:ok")
                        || !flags(s, node, id0).endsWith("master,fail") || line(s, node, id0).endsWith("0-5460")) {
                    return false;
                }
            }
            return true;
        });
        for (int node : new int[] {1, 3, 4}) {
            s.step(node, "CLUSTER", "NODES");
            s.step(node, "CLUSTER", "INFO");
        }
        s.step(2, "CLUSTER", "SHARDS");
        s.step(2, "CLUSTER", "SLOTS");
        s.step(3, "CLUSTER", "REPLICAS", id3);
        s.step(3, "CLUSTER", "FAILOVER");
        s.step(3, "GET", "b");
        s.step(1, "GET", "b");

        // the client goes on: the keys of the dead master are read from its replica, counters continue
        int read = 0;
        for (int i = 0; i < KEYS; i++) {
            read += ("value" + i).equals(jedis.get("key" + i)) ? 1 : 0;
        }
        s.note("jedis read back " + read + " of " + KEYS + " keys");
        for (int i = 0; i < 3; i++) {
            s.note("jedis INCR counter" + i + " -> " + jedis.incr("counter" + i));
        }
        for (int i = 0; i < KEYS; i++) {
            jedis.set("after" + i, "new" + i);
        }
        int written = 0;
        for (int i = 0; i < KEYS; i++) {
            written += ("new" + i).equals(jedis.get("after" + i)) ? 1 : 0;
        }
        s.note("jedis wrote and read " + written + " of " + KEYS + " new keys");
    }

    /** Polls, bounded, letting the cluster's time pass between polls (see {@link Faults#tick}). */
    private static void awaitTicking(ClusterNodesSession s, Faults faults, String what,
                                     java.util.function.BooleanSupplier condition) {
        s.await(what, () -> {
            if (condition.getAsBoolean()) {
                return true;
            }
            faults.tick();
            return false;
        });
    }

    /** A node's CLUSTER NODES line about the node {@code id}. */
    private static String line(ClusterNodesSession s, int node, String id) {
        return s.client(node).call("CLUSTER", "NODES").text().lines().filter(l -> l.startsWith(id + " "))
                .findFirst().orElseThrow();
    }

    private static String flags(ClusterNodesSession s, int node, String id) {
        return line(s, node, id).split(" ")[2];
    }
}
