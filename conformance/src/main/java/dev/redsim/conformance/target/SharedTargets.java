package dev.redsim.conformance.target;

/**
 * One simulator and one reference Redis per JVM, started on first use and stopped when the JVM exits, so a
 * suite of many test classes pays the start-up once. Tests flush what they use.
 */
public final class SharedTargets {
    private static SimulatorTarget simulator;
    private static RedisTarget reference;
    /** By the number of masters. */
    private static final java.util.Map<Integer, ClusterTarget> SIMULATED_CLUSTERS = new java.util.HashMap<>();
    private static final java.util.Map<Integer, ClusterTarget> REFERENCE_CLUSTERS = new java.util.HashMap<>();

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
        return SIMULATED_CLUSTERS.computeIfAbsent(masters, m -> stoppedAtExit(new SimulatedClusterTarget(m)));
    }

    /** A real cluster of {@code masters} masters (see {@link Targets#referenceCluster}: skipped locally without one). */
    public static synchronized ClusterTarget referenceCluster(int masters) {
        return REFERENCE_CLUSTERS.computeIfAbsent(masters, m -> stoppedAtExit(Targets.referenceCluster(m, 0)));
    }

    private static ClusterTarget stoppedAtExit(ClusterTarget cluster) {
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, cluster.name() + "-stop"));
        return cluster;
    }
}
