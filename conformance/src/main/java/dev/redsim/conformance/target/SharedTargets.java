package dev.redsim.conformance.target;

/**
 * One simulator and one reference Redis per JVM, started on first use and stopped when the JVM exits, so a
 * suite of many test classes pays the start-up once. Tests flush what they use.
 */
public final class SharedTargets {
    private static SimulatorTarget simulator;
    private static RedisTarget reference;

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
}
