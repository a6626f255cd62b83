package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A node of the simulated cluster failing on its own, step by step on the cluster's one clock (decision 0028), which
 * only the simulator lets a test hold still: PFAIL ("fail?") after cluster-node-timeout, FAIL half a timeout later,
 * the replica's election 500 ms after that, the new epoch, the stopped master's slots uncovered when it has no replica,
 * and what a restart without persistence brings back. (The same failover on a real cluster, by its PID, is
 * {@link ClusterNodeFailureConformanceTest}.) Nodes 0-2 are the masters in slot order, node 3 + i the replica of i.
 */
class SimulatedNodeFailureTest {
    private static final Duration TIMEOUT = Duration.ofMillis(15_000); // cluster-node-timeout's default

    @Test
    void aStoppedMasterIsSuspectedThenFailedThenReplacedByItsReplica() {
        try (RedisCluster cluster = RedisSimulator.cluster().replicas(1).start();
             RespClient node1 = client(cluster, 1)) {
            cluster.freezeTime();
            try (RespClient master = client(cluster, 0)) {
                assertThat(master.call("SET", "b", "kept").text()).isEqualTo("OK");
                assertThat(master.call("FUNCTION", "LOAD",
                        "#!lua name=lib\nredis.register_function('f', function() return 1 end)").text())
                        .isEqualTo("lib");
            }
            String id0 = cluster.nodeId(0);
            cluster.stop(0);
            assertThat(refusesConnections(cluster, 0)).isTrue();
            assertThat(line(node1, id0)).contains(" master - ").contains(" disconnected 0-5460");
            assertThat(info(node1)).contains("cluster_state:ok");

            cluster.advanceTime(TIMEOUT.minusMillis(1));
            assertThat(line(node1, id0)).contains(" master - ");
            cluster.advanceTime(Duration.ofMillis(1));
            assertThat(line(node1, id0)).contains(" master,fail? - ");
            assertThat(info(node1)).contains("cluster_state:ok").contains("cluster_slots_pfail:5461")
                    .contains("cluster_slots_ok:10923");

            cluster.advanceTime(TIMEOUT.dividedBy(2));
            assertThat(line(node1, id0)).contains(" master,fail - ").contains(" disconnected 0-5460");
            assertThat(info(node1)).contains("cluster_state:fail").contains("cluster_slots_fail:5461");
            assertThat(node1.call("GET", "c").text()).isEqualTo("CLUSTERDOWN The cluster is down");
            assertThat(health(node1, id0)).isEqualTo("fail");

            cluster.advanceTime(Duration.ofMillis(499));
            assertThat(cluster.masterOf(3)).isZero();
            cluster.advanceTime(Duration.ofMillis(1));
            // the election: node 3 takes epoch 7 (6 nodes had 1..6) and the slots; node 0 stays a failed master
            assertThat(cluster.masterOf(3)).isEqualTo(-1);
            assertThat(cluster.ownerOf(0)).isEqualTo(3);
            assertThat(info(node1)).contains("cluster_state:ok").contains("cluster_current_epoch:7")
                    .contains("cluster_slots_fail:0");
            assertThat(line(node1, cluster.nodeId(3))).contains(" master - ").contains(" 7 connected 0-5460");
            assertThat(line(node1, id0)).contains(" master,fail - ").endsWith(" disconnected");
            assertThat(node1.call("GET", "b").text()).startsWith("MOVED 3300 ");
            try (RespClient promoted = client(cluster, 3)) {
                assertThat(promoted.call("GET", "b").text()).isEqualTo("kept");
                assertThat(promoted.call("CLUSTER", "FAILOVER").text())
                        .isEqualTo("ERR You should send CLUSTER FAILOVER to a replica");
            }

            // back without persistence: it learns its slots are node 3's and loads node 3's data and functions
            cluster.start(0);
            assertThat(cluster.masterOf(0)).isEqualTo(3);
            assertThat(line(node1, id0)).contains(" slave " + cluster.nodeId(3) + " ").contains(" connected");
            try (RespClient restarted = client(cluster, 0)) {
                assertThat(restarted.call("READONLY").text()).isEqualTo("OK");
                assertThat(restarted.call("GET", "b").text()).isEqualTo("kept");
                assertThat(restarted.call("FUNCTION", "LIST").children()).hasSize(1);
            }
        }
    }

    @Test
    void aStoppedMasterWithoutAReplicaLeavesItsSlotsUncovered() {
        try (RedisCluster cluster = RedisSimulator.cluster().start();
             RespClient node1 = client(cluster, 1)) {
            cluster.freezeTime();
            try (RespClient master = client(cluster, 0)) {
                master.call("SET", "b", "lost");
            }
            cluster.stop(2);
            cluster.advanceTime(TIMEOUT.multipliedBy(10));
            assertThat(info(node1)).contains("cluster_state:fail").contains("cluster_slots_fail:5461");
            assertThat(cluster.ownerOf(16383)).isEqualTo(2);
            assertThat(node1.call("CONFIG", "SET", "cluster-require-full-coverage", "no").text()).isEqualTo("OK");
            assertThat(info(node1)).contains("cluster_state:ok");
            assertThat(node1.call("SET", "c", "1").text()).isEqualTo("OK");

            // it restarts empty and keeps FAIL for two node timeouts after the FAIL (it is long past here)
            cluster.stop(0);
            cluster.start(2);
            cluster.advanceTime(TIMEOUT.multipliedBy(3));
            assertThat(line(node1, cluster.nodeId(2))).contains(" master - ").contains(" connected 10923-16383");
            assertThat(line(node1, cluster.nodeId(0))).contains(" master,fail - ");
            try (RespClient restarted = client(cluster, 2)) {
                assertThat(restarted.call("DBSIZE").asLong()).isZero();
            }
        }
    }

    @Test
    void aMinorityOfMastersNeverAgreesOnAFailure() {
        try (RedisCluster cluster = RedisSimulator.cluster().start();
             RespClient node2 = client(cluster, 2)) {
            cluster.freezeTime();
            cluster.stop(0);
            cluster.stop(1);
            cluster.advanceTime(TIMEOUT.multipliedBy(10));
            // one master of three cannot reach a quorum of two: PFAIL only, and its own state is fail
            assertThat(line(node2, cluster.nodeId(0))).contains(" master,fail? - ");
            assertThat(info(node2)).contains("cluster_state:fail").contains("cluster_slots_pfail:10923");
            assertThat(node2.call("GET", "a").text()).isEqualTo("CLUSTERDOWN The cluster is down");
            // node 1 back: a majority again, which agrees at once that node 0 (long silent) failed
            cluster.start(1);
            assertThat(line(node2, cluster.nodeId(1))).contains(" master - ");
            assertThat(line(node2, cluster.nodeId(0))).contains(" master,fail - ");
            assertThat(info(node2)).contains("cluster_state:fail").contains("cluster_slots_fail:5461");
            assertThatThrownBy(() -> cluster.start(1)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aManualFailoverNeedsForceOnceTheMasterIsDown() {
        try (RedisCluster cluster = RedisSimulator.cluster().replicas(1).start();
             RespClient replica = client(cluster, 4)) {
            cluster.freezeTime();
            cluster.stop(1);
            assertThat(replica.call("CLUSTER", "FAILOVER").text())
                    .isEqualTo("ERR Master is down or failed, please use CLUSTER FAILOVER FORCE");
            assertThat(replica.call("CLUSTER", "FAILOVER", "FORCE").text()).isEqualTo("OK");
            assertThat(cluster.ownerOf(5461)).isEqualTo(4);
            assertThat(cluster.masterOf(1)).isEqualTo(-1); // down: it follows node 4 once it starts again
            cluster.start(1);
            assertThat(cluster.masterOf(1)).isEqualTo(4);
            cluster.resetTopology();
            assertThat(cluster.ownerOf(5461)).isEqualTo(1);
        }
    }

    @Test
    void resetTopologyStartsStoppedNodesAgain() {
        try (RedisCluster cluster = RedisSimulator.cluster().replicas(1).start()) {
            cluster.freezeTime();
            cluster.stop(0);
            cluster.advanceTime(TIMEOUT.multipliedBy(2));
            assertThat(cluster.ownerOf(0)).isEqualTo(3);
            cluster.resetTopology();
            assertThat(cluster.isStopped(0)).isFalse();
            assertThat(cluster.ownerOf(0)).isZero();
            assertThat(cluster.masterOf(3)).isZero();
            try (RespClient node0 = client(cluster, 0)) {
                assertThat(info(node0)).contains("cluster_state:ok").contains("cluster_slots_fail:0");
            }
        }
    }

    private static RespClient client(RedisCluster cluster, int node) {
        return new RespClient(cluster.host(), cluster.ports().get(node));
    }

    private static boolean refusesConnections(RedisCluster cluster, int node) {
        try (Socket ignored = new Socket(cluster.host(), cluster.ports().get(node))) {
            return false;
        } catch (IOException refused) {
            return true;
        }
    }

    private static String info(RespClient client) {
        return client.call("CLUSTER", "INFO").text();
    }

    /** A node's line in CLUSTER NODES as {@code client}'s node sees it. */
    private static String line(RespClient client, String id) {
        return client.call("CLUSTER", "NODES").text().lines().filter(l -> l.startsWith(id + " ")).findFirst()
                .orElseThrow();
    }

    /** A node's health in CLUSTER SHARDS. */
    private static String health(RespClient client, String id) {
        for (RespValue shard : client.call("CLUSTER", "SHARDS").children()) {
            for (RespValue node : shard.children().get(3).children()) {
                var fields = node.children();
                if (fields.get(1).text().equals(id)) {
                    for (int i = 0; i + 1 < fields.size(); i += 2) {
                        if (fields.get(i).text().equals("health")) {
                            return fields.get(i + 1).text();
                        }
                    }
                }
            }
        }
        throw new AssertionError("no node " + id);
    }
}
