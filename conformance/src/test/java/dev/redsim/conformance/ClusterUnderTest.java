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

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
