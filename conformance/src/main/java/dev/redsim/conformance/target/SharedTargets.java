package dev.redsim.conformance.target;

/**
 * One simulator and one reference Redis per JVM, started on first use and stopped when the JVM exits, so a
 * suite of many test classes pays the start-up once. Tests flush what they use.
 */
public final class SharedTargets {
    private static SimulatorTarget simulator;
    private static RedisTarget reference;
    /** By "masters+replicas per master". */
    private static final java.util.Map<String, ClusterTarget> SIMULATED_CLUSTERS = new java.util.HashMap<>();
    private static final java.util.Map<String, ClusterTarget> REFERENCE_CLUSTERS = new java.util.HashMap<>();

    private SharedTargets() {
    }

    public static synchronized SimulatorTarget simulator() {
        if (simulator == null) {
            simulator = new SimulatorTarget();
            SimulatorTarget started = simulator;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "redsim-simulator-stop"));
        }
        return simulator;
    }

    /** The real Redis (see {@link Targets#reference()}: skipped locally without one, failing in CI). */
    public static synchronized RedisTarget reference() {
        if (reference == null) {
            reference = Targets.reference();
            RedisTarget started = reference;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "redis-server-stop"));
        }
        return reference;
    }

    /** A simulated cluster of {@code masters} masters, shared by the JVM's tests (they flush what they use). */
    public static synchronized ClusterTarget simulatedCluster(int masters) {
        return simulatedCluster(masters, 0);
    }

    /** As {@link #simulatedCluster(int)}, with {@code replicas} replicas of each master. */
    public static synchronized ClusterTarget simulatedCluster(int masters, int replicas) {
        return SIMULATED_CLUSTERS.computeIfAbsent(masters + "+" + replicas,
                k -> stoppedAtExit(new SimulatedClusterTarget(masters, replicas)));
    }

    /** A real cluster of {@code masters} masters (see {@link Targets#referenceCluster}: skipped locally without one). */
    public static synchronized ClusterTarget referenceCluster(int masters) {
        return referenceCluster(masters, 0);
    }

    /** As {@link #referenceCluster(int)}, with {@code replicas} replicas of each master. */
    public static synchronized ClusterTarget referenceCluster(int masters, int replicas) {
        return REFERENCE_CLUSTERS.computeIfAbsent(masters + "+" + replicas,
                k -> stoppedAtExit(Targets.referenceCluster(masters, replicas)));
    }

    private static ClusterTarget stoppedAtExit(ClusterTarget cluster) {
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, cluster.name() + "-stop"));
        return cluster;
    }
}
