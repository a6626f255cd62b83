package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a test can observe of the simulated cluster's replicas (decision 0022), which a real cluster would show only
 * after a wait: a replica holds a write once its client has the reply, WAIT counts it at once, a failover is done when
 * {@link RedisCluster#failover} returns, and {@link RedisCluster#resetTopology} gives the roles back with the data
 * equal on both sides. (What they answer is compared with a real cluster in the conformance kit.)
 */
class ClusterReplicasTest {
    @Test
    void aReplicaAppliesItsMastersWritesBeforeTheClientReadsTheReply() throws Exception {
        try (RedisCluster cluster = RedisSimulator.cluster().replicas(1).start();
             TinyClient master = new TinyClient(cluster.nodes().get(0));
             TinyClient replica = new TinyClient(cluster.nodes().get(3))) {
            assertThat(cluster.nodes()).hasSize(6);
            assertThat(cluster.masterOf(3)).isZero();
            assertThat(cluster.masterOf(0)).isEqualTo(-1);
            assertThat(master.call("SET b 1 PX 5000")).isEqualTo("+OK");
            assertThat(replica.call("READONLY")).isEqualTo("+OK");
            assertThat(replica.call("GET b")).isEqualTo("1");
            assertThat(master.call("WAIT 1 0")).isEqualTo(":1");
            // one clock: the key expires on both at once
            cluster.freezeTime();
            cluster.advanceTime(Duration.ofMillis(5000));
            assertThat(replica.call("EXISTS b")).isEqualTo(":0");
            assertThat(master.call("EXISTS b")).isEqualTo(":0");
        }
    }

    @Test
    void aFailoverIsCompleteWhenTheCallReturnsAndResetTopologyUndoesIt() throws Exception {
        try (RedisCluster cluster = RedisSimulator.cluster().replicas(1).start()) {
            try (TinyClient master = new TinyClient(cluster.nodes().get(0))) {
                assertThat(master.call("RPUSH {b}list x y")).isEqualTo(":2");
            }
            cluster.failover(3);
            assertThat(cluster.ownerOf(0)).isEqualTo(3);
            assertThat(cluster.masterOf(0)).isEqualTo(3);
            assertThat(cluster.masterOf(3)).isEqualTo(-1);
            try (TinyClient former = new TinyClient(cluster.nodes().get(0));
                 TinyClient promoted = new TinyClient(cluster.nodes().get(3))) {
                assertThat(former.call("LLEN {b}list")).startsWith("-MOVED 3300 " + cluster.addresses().get(3));
                assertThat(promoted.call("RPUSH {b}list z")).isEqualTo(":3");
                assertThat(former.call("READONLY")).isEqualTo("+OK");
                assertThat(former.call("LLEN {b}list")).isEqualTo(":3");
            }
            cluster.resetTopology();
            assertThat(cluster.ownerOf(0)).isZero();
            assertThat(cluster.masterOf(3)).isZero();
            try (TinyClient master = new TinyClient(cluster.nodes().get(0));
                 TinyClient replica = new TinyClient(cluster.nodes().get(3))) {
                assertThat(master.call("LLEN {b}list")).isEqualTo(":3");
                assertThat(master.call("RPUSH {b}list w")).isEqualTo(":4");
                assertThat(replica.call("READONLY")).isEqualTo("+OK");
                assertThat(replica.call("LLEN {b}list")).isEqualTo(":4");
            }
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> cluster.failover(1));
        }
    }
}
