package dev.redsim.simulator;

import dev.redsim.simulator.junit.RedisClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The test-facing slot move: in one call, or step by step with the redirections a client meets in between; the
 * extension puts the slots back before the next test.
 */
class SlotMigrationTest {
    @RegisterExtension
    static final RedisClusterExtension EXTENSION = new RedisClusterExtension(RedisSimulator.cluster());

    private static final String KEY = "{user42}name";
    private static final int SLOT = RedisCluster.slotOf(KEY);

    @Test
    void moveSlotTakesItsKeysAlongAndEveryNodeRedirectsToTheNewOwner(RedisCluster cluster) throws Exception {
        int source = cluster.ownerOf(SLOT);
        int target = (source + 1) % 3;
        try (TinyClient client = new TinyClient(cluster.nodes().get(source))) {
            for (int i = 0; i < 25; i++) {
                assertThat(client.call("SET {user42}k" + i + " v" + i)).isEqualTo("+OK");
            }
            assertThat(client.call("SET " + KEY + " alice")).isEqualTo("+OK");
        }
        cluster.moveSlot(SLOT, target);
        assertThat(cluster.ownerOf(SLOT)).isEqualTo(target);
        assertThat(cluster.nodeFor(KEY)).isSameAs(cluster.nodes().get(target));
        for (int i = 0; i < 3; i++) {
            try (TinyClient client = new TinyClient(cluster.nodes().get(i))) {
                assertThat(client.call("GET " + KEY))
                        .isEqualTo(i == target ? "alice" : "-MOVED " + SLOT + " " + cluster.addresses().get(target));
                assertThat(client.call("CLUSTER COUNTKEYSINSLOT " + SLOT)).isEqualTo(i == target ? ":26" : ":0");
            }
        }
        // the importing node took a new config epoch, the highest, so that its claim wins
        assertThat(epochs(cluster.nodes().get(target))).containsExactly(4L, 4L);
    }

    @Test
    void halfWayClientsAreAskedToGoToTheTargetForKeysAlreadyMoved(RedisCluster cluster) throws Exception {
        int source = cluster.ownerOf(SLOT);
        int target = (source + 2) % 3;
        try (TinyClient client = new TinyClient(cluster.nodes().get(source))) {
            assertThat(client.call("SET " + KEY + " alice")).isEqualTo("+OK");
            assertThat(client.call("SET {user42}age 42")).isEqualTo("+OK");
        }
        SlotMigration migration = cluster.startSlotMigration(SLOT, target);
        assertThat(migration.migrateKeys(1)).isEqualTo(1); // the newest key first: {user42}age
        assertThat(migration.keysLeft()).isEqualTo(1);
        String ask = "-ASK " + SLOT + " " + cluster.addresses().get(target);
        try (TinyClient client = new TinyClient(cluster.nodes().get(source))) {
            assertThat(client.call("GET " + KEY)).isEqualTo("alice");
            assertThat(client.call("GET {user42}age")).isEqualTo(ask);
            assertThat(client.call("MGET " + KEY + " {user42}age"))
                    .isEqualTo("-TRYAGAIN Multiple keys request during rehashing of slot");
        }
        try (TinyClient client = new TinyClient(cluster.nodes().get(target))) {
            assertThat(client.call("GET {user42}age")).startsWith("-MOVED " + SLOT);
            assertThat(client.call("ASKING")).isEqualTo("+OK");
            assertThat(client.call("GET {user42}age")).isEqualTo("42");
        }
        migration.finish();
        assertThat(migration.keysLeft()).isZero();
        assertThat(cluster.ownerOf(SLOT)).isEqualTo(target);
        try (TinyClient client = new TinyClient(cluster.nodes().get(target))) {
            assertThat(client.call("GET " + KEY)).isEqualTo("alice");
        }
        for (RedisSimulator node : cluster.nodes()) {
            assertThat(node.onEngine(() -> node.clusterState().migratingSlots().size()
                    + node.clusterState().importingSlots().size())).isZero();
        }
    }

    /** The cluster's current epoch and the node's own config epoch. */
    private static java.util.List<Long> epochs(RedisSimulator node) {
        return node.onEngine(() -> java.util.List.of(node.clusterState().topology().currentEpoch(),
                node.clusterState().myself().configEpoch()));
    }

    @Test
    void aSlotIsMovedOnlyToAnotherNode(RedisCluster cluster) {
        int source = cluster.ownerOf(SLOT);
        assertThatThrownBy(() -> cluster.moveSlot(SLOT, source)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> cluster.moveSlot(SLOT, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> cluster.moveSlot(16384, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theExtensionPutsTheSlotsBackBetweenTests(RedisCluster cluster) throws Exception {
        cluster.moveSlot(0, 2);
        assertThat(cluster.ownerOf(0)).isEqualTo(2);
        cluster.resetTopology();
        assertThat(cluster.ownerOf(0)).isZero();
        assertThat(epochs(cluster.nodes().get(0))).containsExactly(3L, 1L);
    }
}
