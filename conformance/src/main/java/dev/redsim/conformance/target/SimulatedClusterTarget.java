package dev.redsim.conformance.target;

import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;

import java.util.ArrayList;
import java.util.List;

/** The in-process {@link RedisCluster} as a cluster target: its nodes are in slot order already. */
public final class SimulatedClusterTarget implements ClusterTarget {
    private final RedisCluster cluster;
    private final List<RedisTarget> masters = new ArrayList<>();

    public SimulatedClusterTarget(int masters) {
        this(RedisSimulator.cluster().masters(masters).start());
    }

    public SimulatedClusterTarget(RedisCluster cluster) {
        this.cluster = cluster;
        for (int port : cluster.ports()) {
            masters.add(new NodeView(cluster.host(), port));
        }
    }

    public RedisCluster cluster() {
        return cluster;
    }

    @Override
    public String name() {
        return "simulator";
    }

    @Override
    public List<RedisTarget> masters() {
        return List.copyOf(masters);
    }

    @Override
    public void close() {
        cluster.close();
    }

    /** One node's address; closing it closes nothing (the cluster owns its nodes). */
    private record NodeView(String host, int port) implements RedisTarget {
        @Override
        public String name() {
            return "simulator";
        }

        @Override
        public void close() {
        }
    }
}
