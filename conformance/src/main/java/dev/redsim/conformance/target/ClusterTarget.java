package dev.redsim.conformance.target;

import java.util.List;

/**
 * A Redis Cluster that speaks RESP on its nodes' ports: a real one ({@link RedisClusterTarget}) or the simulated one
 * ({@link SimulatedClusterTarget}). The masters come in slot order, so node 0 of one cluster serves the slots node 0
 * of the other serves (both split the slots as redis-cli --cluster create does), and a scenario or a history can name
 * a node by its index on both.
 */
public interface ClusterTarget extends AutoCloseable {
    /** A short name for reports: "redis-cluster", "simulated-cluster". */
    String name();

    /** The masters, in the order of the slots they serve (node 0 serves slot 0). */
    List<RedisTarget> masters();

    /** Every node: the masters as {@link #masters()}, then their replicas, those of the first master first. */
    default List<RedisTarget> nodes() {
        return masters();
    }

    @Override
    void close();
}
