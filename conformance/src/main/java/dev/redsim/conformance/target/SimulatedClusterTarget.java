package dev.redsim.conformance.target;

import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;

import java.util.ArrayList;
import java.util.List;

/** The in-process {@link RedisCluster} as a cluster target: its nodes are in slot order already. */
public final class SimulatedClusterTarget implements ClusterTarget {
    private final RedisCluster cluster;
    private final List<RedisTarget> nodes = new ArrayList<>();
    private final int masters;

    public SimulatedClusterTarget(int masters) {
        this(masters, 0);
    }

    public SimulatedClusterTarget(int masters, int replicasPerMaster) {
        this(RedisSimulator.cluster().masters(masters).replicas(replicasPerMaster).start(), masters);
    }

    public SimulatedClusterTarget(RedisCluster cluster) {
        this(cluster, cluster.ports().size());
    }

    private SimulatedClusterTarget(RedisCluster cluster, int masters) {
        this.cluster = cluster;
        this.masters = masters;
        for (int port : cluster.ports()) {
            nodes.add(new NodeView(cluster.host(), port));
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
        return List.copyOf(nodes.subList(0, masters));
    }

    @Override
    public List<RedisTarget> nodes() {
        return List.copyOf(nodes);
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
