package dev.redsim.simulator.cluster;

/**
 * What a node sends to the other nodes of its cluster, as Redis sends it over the cluster bus; implemented by the
 * cluster that wires the nodes together. Today: PUBLISH's messages (clusterPropagatePublish), which subscribers on
 * every node receive.
 */
public interface ClusterBus {
    /** Delivers a PUBLISH made on node {@code from} to the subscribers of every other node, after the call returns. */
    void publish(ClusterNodeInfo from, byte[] channel, byte[] message);
}
