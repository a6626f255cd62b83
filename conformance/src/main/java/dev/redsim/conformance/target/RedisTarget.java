package dev.redsim.conformance.target;

/**
 * Anything that speaks RESP on a host and port: the in-process simulator, a redis-server started from PATH,
 * or an external server. Suites reach a target only through clients.
 */
public interface RedisTarget extends AutoCloseable {
    /** A short name for reports: "simulator", "redis-server", "external". */
    String name();

    String host();

    int port();

    /** Stops what the target started (nothing for an external server). */
    @Override
    void close();
}
