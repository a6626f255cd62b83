package dev.redsim.conformance.target;

import org.opentest4j.TestAbortedException;

/**
 * Chooses the reference target that the simulator is compared with: REDIS_URL when set, otherwise a
 * redis-server started from PATH. When redis-server is missing, tests are skipped locally but fail in CI
 * (CI=true) or when redsim.requireRealRedis=true: there, the real-Redis tests must run. Either way the server must
 * run the version under test's major.minor ({@link ReferenceVersion}).
 */
public final class Targets {
    private Targets() {
    }

    public static boolean realRedisRequired() {
        return "true".equalsIgnoreCase(System.getenv("CI"))
                || Boolean.getBoolean("redsim.requireRealRedis")
                || "true".equalsIgnoreCase(System.getenv("REDSIM_REQUIRE_REAL_REDIS"));
    }

    /** Whether a real Redis can be had here: REDIS_URL is set or redis-server is on PATH. */
    public static boolean referenceAvailable() {
        String url = System.getenv("REDIS_URL");
        return (url != null && !url.isBlank()) || RedisServerTarget.available();
    }

    /** The real Redis to compare with; aborts the test (skip) or fails, as described above, when there is none. */
    public static RedisTarget reference() {
        String url = System.getenv("REDIS_URL");
        if (url != null && !url.isBlank()) {
            ExternalTarget external = new ExternalTarget(url);
            ReferenceVersion.require(external);
            return external;
        }
        if (!RedisServerTarget.available()) {
            String message = "redis-server is not on PATH: the tests that compare with real Redis cannot run";
            if (realRedisRequired()) {
                throw new IllegalStateException(message + " (required here: CI=true or redsim.requireRealRedis)");
            }
            throw new TestAbortedException(message);
        }
        return RedisServerTarget.start();
    }

    /**
     * A real Redis Cluster to compare a simulated one with (from redis-server and redis-cli on PATH), with the same
     * rule as {@link #reference()}: skipped locally when they are missing, a failure in CI.
     */
    public static RedisClusterTarget referenceCluster(int masters, int replicasPerMaster) {
        return referenceCluster(masters, replicasPerMaster, new String[0]);
    }

    /** As {@link #referenceCluster(int, int)}, every node started with more options ("--cluster-node-timeout", "1000"). */
    public static RedisClusterTarget referenceCluster(int masters, int replicasPerMaster, String... nodeOptions) {
        if (!RedisClusterTarget.available()) {
            String message = "redis-server or redis-cli is not on PATH: the tests that compare with a real Redis Cluster"
                    + " cannot run";
            if (realRedisRequired()) {
                throw new IllegalStateException(message + " (required here: CI=true or redsim.requireRealRedis)");
            }
            throw new TestAbortedException(message);
        }
        return RedisClusterTarget.start(masters, replicasPerMaster, nodeOptions);
    }
}
