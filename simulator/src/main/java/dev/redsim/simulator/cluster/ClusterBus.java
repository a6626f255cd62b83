package dev.redsim.simulator.cluster;

/**
 * What a node sends to the other nodes of its cluster, as Redis sends it over the cluster bus; implemented by the
 * cluster that wires the nodes together. Today: PUBLISH's messages (clusterPropagatePublish), which subscribers on
 * every node receive; and a replica's failover, which the cluster carries out on every node at once.
 */
public interface ClusterBus {
    /** Delivers a PUBLISH made on node {@code from} to the subscribers of every other node, after the call returns. */
    void publish(ClusterNodeInfo from, byte[] channel, byte[] message);

    /**
     * Delivers an SPUBLISH made on node {@code from} to the shard channel's subscribers on the other nodes of its
     * shard (its master and the master's replicas), after the call returns (clusterPropagatePublishShard).
     */
    void publishShard(ClusterNodeInfo from, byte[] channel, byte[] message);

    /**
     * The replica {@code replica} takes its master's place (CLUSTER FAILOVER on it): the topology, the replication
     * links and the roles of every node of the shard change before this returns (decision 0022). {@code election}: a
     * FAILOVER or FAILOVER FORCE (a new config epoch from the voters), false for a TAKEOVER (epoch bumped without
     * consensus).
     */
    void failover(ClusterNodeInfo replica, boolean election);
}
