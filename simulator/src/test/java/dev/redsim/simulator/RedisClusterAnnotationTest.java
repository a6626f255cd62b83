package dev.redsim.simulator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code @RedisClusterTest} annotation as a user writes it: a 3-master cluster per class, given to
 * {@code @BeforeAll} and test methods as a parameter, and put back before each test: the first test leaves keys, a
 * moved slot and a frozen, advanced clock behind; the second finds the keys gone, the slot at its first owner and the
 * clock following the wall clock again. The tests run in order, so the second one checks what the first one left.
 */
@dev.redsim.simulator.junit.RedisClusterTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterAnnotationTest {
    /** Slot of "somekey": 11058, the third master's with the default three (10923-16383). */
    private static final int SLOT = 11058;
    private RedisCluster first;

    @BeforeAll
    void theClassGetsOneCluster(RedisCluster cluster) {
        first = cluster;
    }

    @Test
    @Order(1)
    void aTestChangesTheCluster(RedisCluster cluster) throws Exception {
        assertThat(cluster).isSameAs(first);
        assertThat(cluster.nodes()).hasSize(3);
        assertThat(RedisCluster.slotOf("somekey")).isEqualTo(SLOT);
        assertThat(cluster.ownerOf(SLOT)).isEqualTo(2);
        try (TinyClient client = new TinyClient(cluster.nodes().get(2))) {
            assertThat(client.call("SET somekey 1")).isEqualTo("+OK");
        }
        cluster.moveSlot(SLOT, 0);
        assertThat(cluster.ownerOf(SLOT)).isEqualTo(0);
        cluster.freezeTime();
        cluster.advanceTime(Duration.ofDays(365));
        try (TinyClient client = new TinyClient(cluster.nodes().get(0))) {
            assertThat(client.call("GET somekey")).isEqualTo("1");
        }
    }

    @Test
    @Order(2)
    void theNextTestFindsItAsItStarted(RedisCluster cluster) throws Exception {
        assertThat(cluster).isSameAs(first);
        assertThat(cluster.ownerOf(SLOT)).isEqualTo(2);
        try (TinyClient client = new TinyClient(cluster.nodes().get(2))) {
            assertThat(client.call("EXISTS somekey")).isEqualTo(":0");
        }
        try (TinyClient client = new TinyClient(cluster.nodes().get(0))) {
            assertThat(client.call("DBSIZE")).isEqualTo(":0");
            assertThat(client.call("GET somekey")).isEqualTo("-MOVED " + SLOT + " " + cluster.addresses().get(2));
        }
        assertThat(Math.abs(cluster.currentTimeMillis() - System.currentTimeMillis())).isLessThan(60_000);
    }
}
