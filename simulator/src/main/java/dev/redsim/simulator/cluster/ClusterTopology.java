package dev.redsim.simulator.cluster;

import dev.redsim.simulator.util.KeyHashSlot;

import java.util.Arrays;
import java.util.List;

/**
 * The one description of the cluster that every simulated node reads: its nodes (masters in creation order) and
 * which node serves each slot. All nodes run on one thread, so they share this object instead of each converging
 * on its own copy through gossip (decision 0015): a node's view of the slots is always the cluster's.
 */
public final class ClusterTopology {
    private final List<ClusterNodeInfo> nodes;
    private final int[] ownerBySlot = new int[KeyHashSlot.SLOTS];
    private final long createdAtMillis;

    public ClusterTopology(List<ClusterNodeInfo> nodes, long createdAtMillis) {
        this.nodes = List.copyOf(nodes);
        this.createdAtMillis = createdAtMillis;
        Arrays.fill(ownerBySlot, -1);
        for (int i = 0; i < nodes.size(); i++) {
            for (ClusterNodeInfo.SlotRange range : nodes.get(i).slots()) {
                Arrays.fill(ownerBySlot, range.first(), range.last() + 1, i);
            }
        }
    }

    public List<ClusterNodeInfo> nodes() {
        return nodes;
    }

    /** The node serving a slot, or null when none does. */
    public ClusterNodeInfo owner(int slot) {
        int index = ownerBySlot[slot];
        return index < 0 ? null : nodes.get(index);
    }

    public ClusterNodeInfo node(String id) {
        for (ClusterNodeInfo node : nodes) {
            if (node.id().equals(id)) {
                return node;
            }
        }
        return null;
    }

    /** When the cluster was created (the links' create-time). */
    public long createdAtMillis() {
        return createdAtMillis;
    }

    public int assignedSlots() {
        int assigned = 0;
        for (int owner : ownerBySlot) {
            if (owner >= 0) {
                assigned++;
            }
        }
        return assigned;
    }

    public long currentEpoch() {
        long epoch = 0;
        for (ClusterNodeInfo node : nodes) {
            epoch = Math.max(epoch, node.configEpoch());
        }
        return epoch;
    }
}
