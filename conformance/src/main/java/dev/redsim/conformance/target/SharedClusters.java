package dev.redsim.conformance.target;

import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;

import java.util.List;

/**
 * One simulated and one real 3-master cluster per JVM, started on first use and stopped when the JVM exits (as
 * {@link SharedTargets} does for single servers), for the queue suites' cluster variants. A suite asks for the node
 * of a hash tag: different tags spread over the masters, as different queues do.
 */
public final class SharedClusters {
    private static RedisCluster simulated;
    private static RedisClusterTarget reference;

    private SharedClusters() {
    }

    /** The in-process cluster seen through the master serving {@code hashTag}'s slot. */
    public static synchronized ClusterSlotTarget simulated(String hashTag) {
        if (simulated == null) {
            simulated = RedisSimulator.cluster().start();
            RedisCluster started = simulated;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "redsim-cluster-stop"));
        }
        return new ClusterSlotTarget("simulated cluster", hashTag, simulated.addresses());
    }

    /**
     * The real cluster (see {@link Targets#referenceCluster}: skipped locally without redis-server and redis-cli,
     * failing in CI) seen through the master serving {@code hashTag}'s slot.
     */
    public static synchronized ClusterSlotTarget reference(String hashTag) {
        if (reference == null) {
            reference = Targets.referenceCluster(3, 0);
            RedisClusterTarget started = reference;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "redis-cluster-stop"));
        }
        List<String> nodes = reference.nodes().stream().map(n -> n.host() + ":" + n.port()).toList();
        return new ClusterSlotTarget("redis cluster", hashTag, nodes);
    }
}
