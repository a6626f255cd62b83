package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;

import java.util.List;

/**
 * A 3-master cluster for a test that runs on both: "simulator" (an in-process {@link RedisCluster}) or "redis" (a
 * real one, {@link Targets#referenceCluster}). The nodes are in slot order: the first serves slot 0.
 */
final class ClusterUnderTest implements AutoCloseable {
    private final AutoCloseable cluster;
    private final String host;
    private final List<Integer> ports;

    /** The slots each node serves when the cluster starts (redis-cli's split of 3 masters). */
    private static final int[] FIRST_SLOTS = {0, 5461, 10923};

    private ClusterUnderTest(AutoCloseable cluster, String host, List<Integer> ports) {
        this.cluster = cluster;
        this.host = host;
        this.ports = ports;
    }

    static ClusterUnderTest start(String which) {
        if (which.equals("simulator")) {
            RedisCluster simulated = RedisSimulator.cluster().start();
            return new ClusterUnderTest(simulated, simulated.host(), simulated.ports());
        }
        RedisClusterTarget real = Targets.referenceCluster(3, 0);
        return new ClusterUnderTest(real, "127.0.0.1", real.nodes().stream().map(RedisTarget::port).toList());
    }

    String host() {
        return host;
    }

    List<Integer> ports() {
        return ports;
    }

    /** Starts moving a slot (still where the cluster started it) to node {@code target}: see {@link SlotMove}. */
    SlotMove startSlotMove(int slot, int target) {
        int source = slot >= FIRST_SLOTS[2] ? 2 : slot >= FIRST_SLOTS[1] ? 1 : 0;
        if (cluster instanceof RedisCluster simulated) {
            return SlotMove.of(simulated.startSlotMigration(slot, target));
        }
        return new SlotMove.ByCommands(host, ports, slot, source, target);
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
