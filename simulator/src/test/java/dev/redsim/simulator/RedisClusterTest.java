package dev.redsim.simulator;

import dev.redsim.simulator.junit.RedisClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-process cluster as a test uses it: its nodes share one thread and one clock (advancing it expires keys on
 * every node), each keeps its own keys, two clusters share nothing, closing one stops its thread.
 */
class RedisClusterTest {
    @RegisterExtension
    static final RedisClusterExtension EXTENSION = new RedisClusterExtension(RedisSimulator.cluster().masters(4));

    @Test
    void nodesShareOneThreadAndOneClock(RedisCluster cluster) throws Exception {
        assertThat(cluster.nodes()).hasSize(4);
        Set<Thread> threads = new HashSet<>();
        for (RedisSimulator node : cluster.nodes()) {
            threads.add(node.onEngine(Thread::currentThread));
        }
        assertThat(threads).hasSize(1);
        cluster.freezeTime();
        for (String key : new String[] {"a", "b", "c", "d", "e"}) {
            try (TinyClient client = new TinyClient(cluster.nodeFor(key))) {
                assertThat(client.call("SET " + key + " v PX 1000")).isEqualTo("+OK");
            }
        }
        long now = cluster.currentTimeMillis();
        for (RedisSimulator node : cluster.nodes()) {
            assertThat(node.currentTimeMillis()).isEqualTo(now);
        }
        cluster.advanceTime(Duration.ofMillis(1000));
        for (RedisSimulator node : cluster.nodes()) {
            assertThat(node.onEngine(() -> node.engine().database(0).size())).isZero();
        }
    }

    @Test
    void eachNodeServesItsOwnSlotsAndRedirectsTheRest(RedisCluster cluster) throws Exception {
        RedisSimulator owner = cluster.nodeFor("somekey"); // slot 11058: the third of four masters (8192-12287)
        assertThat(owner).isSameAs(cluster.nodes().get(2));
        try (TinyClient client = new TinyClient(cluster.nodes().get(0))) {
            assertThat(client.call("SET somekey 1")).isEqualTo("-MOVED 11058 " + cluster.addresses().get(2));
            assertThat(client.call("CLUSTER COUNTKEYSINSLOT 11058")).isEqualTo(":0");
        }
        try (TinyClient client = new TinyClient(owner)) {
            assertThat(client.call("SET somekey 1")).isEqualTo("+OK");
            assertThat(client.call("CLUSTER COUNTKEYSINSLOT 11058")).isEqualTo(":1");
            assertThat(client.call("CLUSTER MYID")).isEqualTo(cluster.nodeId(2));
        }
    }

    @Test
    void theExtensionEmptiedTheClusterBeforeThisTest(RedisCluster cluster) {
        for (RedisSimulator node : cluster.nodes()) {
            assertThat(node.onEngine(() -> node.engine().database(0).size())).isZero();
        }
    }

    @Test
    void twoClustersShareNothingAndCloseTheirThread() throws InterruptedException {
        Set<String> ids = new HashSet<>();
        Thread engine;
        try (RedisCluster first = RedisSimulator.cluster().start(); RedisCluster second = RedisSimulator.cluster().start()) {
            for (int i = 0; i < 3; i++) {
                ids.add(first.nodeId(i));
                ids.add(second.nodeId(i));
            }
            assertThat(first.nodes().get(0).onEngine(Thread::currentThread))
                    .isNotSameAs(second.nodes().get(0).onEngine(Thread::currentThread));
            engine = first.nodes().get(0).onEngine(Thread::currentThread);
        }
        assertThat(ids).hasSize(6).allMatch(id -> id.matches("[0-9a-f]{40}"));
        engine.join(5_000); // the thread ends just after the event loop reports its termination
        assertThat(engine.isAlive()).isFalse();
    }

    @Test
    void aStandaloneServerRefusesTheClusterCommands() throws Exception {
        try (RedisSimulator standalone = RedisSimulator.start(); TinyClient client = new TinyClient(standalone)) {
            for (String command : new String[] {"CLUSTER INFO", "CLUSTER SLOTS", "READONLY", "READWRITE", "ASKING"}) {
                assertThat(client.call(command)).isEqualTo("-ERR This instance has cluster support disabled");
            }
            assertThat(client.call("SELECT 1")).isEqualTo("+OK");
            assertThat(client.call("SET somekey 1")).isEqualTo("+OK");
        }
    }
}
