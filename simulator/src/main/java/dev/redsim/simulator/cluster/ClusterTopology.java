package dev.redsim.simulator.cluster;

import dev.redsim.simulator.util.KeyHashSlot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one description of the cluster that every simulated node reads: its nodes (masters in creation order), which
 * node serves each slot, and the cluster's current epoch. All nodes run on one thread, so they share this object
 * instead of each converging on its own copy through gossip (decision 0015): a node's view of the slots is always the
 * cluster's. It changes (CLUSTER ADDSLOTS / DELSLOTS / SETSLOT NODE, BUMPEPOCH) on the engine thread only, and every
 * node sees a change at once (decision 0016).
 */
public final class ClusterTopology {
    private final List<ClusterNodeInfo> nodes;
    private final ClusterNodeInfo[] ownerBySlot = new ClusterNodeInfo[KeyHashSlot.SLOTS];
    private final long createdAtMillis;
    private final Map<ClusterNodeInfo, ClusterPeer> peers = new IdentityHashMap<>();
    /** A master that was down when its replica took its place -> that replica, until the master comes back. */
    private final Map<ClusterNodeInfo, ClusterNodeInfo> replacedBy = new IdentityHashMap<>();
    private int assigned;
    private long currentEpoch;
    /** Each node's ranges, rebuilt on the first read after a change (CLUSTER SLOTS/NODES read all slots anyway). */
    private Map<ClusterNodeInfo, List<ClusterNodeInfo.SlotRange>> ranges;

    public ClusterTopology(List<ClusterNodeInfo> nodes, long createdAtMillis) {
        this.nodes = List.copyOf(nodes);
        this.createdAtMillis = createdAtMillis;
        for (ClusterNodeInfo node : this.nodes) {
            node.joined(this);
        }
        restoreInitial();
    }

    /** Back to the slots and epochs the cluster was created with (a test's fresh start). */
    public void restoreInitial() {
        java.util.Arrays.fill(ownerBySlot, null);
        replacedBy.clear();
        assigned = 0;
        currentEpoch = 0;
        ranges = null;
        for (ClusterNodeInfo node : nodes) {
            for (ClusterNodeInfo.SlotRange range : node.initialSlots()) {
                for (int slot = range.first(); slot <= range.last(); slot++) {
                    assign(slot, node);
                }
            }
            node.configEpoch(node.initialConfigEpoch());
            node.master(node.initialMaster());
            node.health(ClusterNodeInfo.Health.OK, createdAtMillis);
            currentEpoch = Math.max(currentEpoch, node.configEpoch());
        }
    }

    /** The masters (nodes that replicate none), in the order the cluster was created. */
    public List<ClusterNodeInfo> masters() {
        return nodes.stream().filter(n -> !n.isReplica()).toList();
    }

    /** The replicas of {@code master}, in the order the cluster was created (Redis's node->slaves). */
    public List<ClusterNodeInfo> replicasOf(ClusterNodeInfo master) {
        return nodes.stream().filter(n -> n.master() == master).toList();
    }

    /**
     * A replica takes its master's place (clusterFailoverReplaceYourMaster after a won election, or a takeover): it
     * gets a new config epoch, its master's slots, and its master and the master's other replicas follow it. After an
     * election (FAILOVER, FORCE) the epoch is always the next one; a TAKEOVER bumps it without consensus, which keeps
     * the replica's own epoch when that is the highest already.
     */
    public void promote(ClusterNodeInfo replica, boolean election) {
        promote(replica, election, true);
    }

    /**
     * As {@link #promote(ClusterNodeInfo, boolean)}; {@code formerFollows} false when the former master is down: it
     * stays a master without slots (CLUSTER NODES shows it "master,fail" with none) until it comes back and learns
     * that its slots have a newer owner ({@link #follow}).
     */
    public void promote(ClusterNodeInfo replica, boolean election, boolean formerFollows) {
        ClusterNodeInfo former = replica.master();
        if (former == null) {
            throw new IllegalStateException(replica + " is a master already");
        }
        for (ClusterNodeInfo node : nodes) {
            if (node.master() == former && node != replica) {
                node.master(replica);
            }
        }
        replica.master(null);
        if (election) {
            long max = currentEpoch;
            for (ClusterNodeInfo other : nodes) {
                max = Math.max(max, other.configEpoch());
            }
            currentEpoch = max + 1;
            replica.configEpoch(currentEpoch);
        } else {
            bumpEpoch(replica);
        }
        for (int slot = 0; slot < ownerBySlot.length; slot++) {
            if (ownerBySlot[slot] == former) {
                ownerBySlot[slot] = replica;
            }
        }
        ranges = null;
        if (formerFollows) {
            former.master(replica);
        } else {
            replacedBy.put(former, replica);
        }
    }

    /**
     * A node comes back: if a replica took its place while it was down, it learns that its slots have a newer owner
     * and replicates the master of that shard now (clusterUpdateSlotsConfigWith, then clusterSetMaster). True when it
     * became a replica.
     */
    public boolean rejoin(ClusterNodeInfo node) {
        ClusterNodeInfo replacement = replacedBy.remove(node);
        if (replacement == null) {
            return false;
        }
        while (replacement.isReplica()) {
            replacement = replacement.master();
        }
        node.master(replacement);
        return true;
    }

    /** Sets what the cluster believes of a node's health (the failure detector's verdicts). */
    public void health(ClusterNodeInfo node, ClusterNodeInfo.Health health, long now) {
        node.health(health, now);
    }

    /** Redis's cluster->size: the masters that serve at least one slot. */
    public int size() {
        int size = 0;
        for (ClusterNodeInfo node : nodes) {
            if (!node.isReplica() && !node.slots().isEmpty()) {
                size++;
            }
        }
        return size;
    }

    /**
     * clusterUpdateState: ok unless a slot is unserved or served by a FAIL node (only when full coverage is required),
     * or fewer than a majority of the masters serving slots are reachable (a minority partition). O(1) while every
     * node is reachable; O(nodes) otherwise.
     */
    public boolean stateOk(boolean requireFullCoverage) {
        boolean anyUnreachable = false;
        for (ClusterNodeInfo node : nodes) {
            anyUnreachable |= !node.reachable();
        }
        if (!anyUnreachable) {
            return !(requireFullCoverage && !fullyCovered()) && assigned > 0;
        }
        if (requireFullCoverage && (!fullyCovered() || slotsServedBy(ClusterNodeInfo.Health.FAIL) > 0)) {
            return false;
        }
        int size = 0;
        int reachable = 0;
        for (ClusterNodeInfo node : nodes) {
            if (!node.isReplica() && !node.slots().isEmpty()) {
                size++;
                reachable += node.reachable() ? 1 : 0;
            }
        }
        return reachable >= size / 2 + 1;
    }

    /** How many slots are served by nodes in the given health (CLUSTER INFO's cluster_slots_ok / pfail / fail). */
    public int slotsServedBy(ClusterNodeInfo.Health health) {
        int count = 0;
        for (ClusterNodeInfo node : nodes) {
            if (node.health() == health) {
                for (ClusterNodeInfo.SlotRange range : node.slots()) {
                    count += range.size();
                }
            }
        }
        return count;
    }

    public List<ClusterNodeInfo> nodes() {
        return nodes;
    }

    /** The node serving a slot, or null when none does. */
    public ClusterNodeInfo owner(int slot) {
        return ownerBySlot[slot];
    }

    public ClusterNodeInfo node(String id) {
        for (ClusterNodeInfo node : nodes) {
            if (node.id().equals(id)) {
                return node;
            }
        }
        return null;
    }

    /** The node listening on a port of this cluster, or null. */
    public ClusterNodeInfo nodeOnPort(int port) {
        for (ClusterNodeInfo node : nodes) {
            if (node.port() == port) {
                return node;
            }
        }
        return null;
    }

    /** When the cluster was created (the links' create-time). */
    public long createdAtMillis() {
        return createdAtMillis;
    }

    /** O(1): kept as slots are assigned and unassigned. */
    public int assignedSlots() {
        return assigned;
    }

    /** Whether every slot is served (cluster_state:ok with cluster-require-full-coverage, Redis's default). */
    public boolean fullyCovered() {
        return assigned == KeyHashSlot.SLOTS;
    }

    /** The cluster's current epoch: the highest epoch any node has seen (each node's own converges on it by gossip). */
    public long currentEpoch() {
        return currentEpoch;
    }

    /** Makes {@code node} serve {@code slot} (clusterAddSlot after clusterDelSlot). */
    public void assign(int slot, ClusterNodeInfo node) {
        if (ownerBySlot[slot] == null) {
            assigned++;
        }
        ownerBySlot[slot] = node;
        ranges = null;
    }

    /** Leaves {@code slot} served by no node (clusterDelSlot). */
    public void unassign(int slot) {
        if (ownerBySlot[slot] != null) {
            assigned--;
            ownerBySlot[slot] = null;
            ranges = null;
        }
    }

    /**
     * clusterBumpConfigEpochWithoutConsensus: unless the node already holds the highest config epoch, the current
     * epoch goes up by one and becomes the node's. True when it did.
     */
    public boolean bumpEpoch(ClusterNodeInfo node) {
        long max = currentEpoch;
        for (ClusterNodeInfo other : nodes) {
            max = Math.max(max, other.configEpoch());
        }
        if (node.configEpoch() != 0 && node.configEpoch() == max) {
            return false;
        }
        currentEpoch = max + 1;
        node.configEpoch(currentEpoch);
        return true;
    }

    List<ClusterNodeInfo.SlotRange> rangesOf(ClusterNodeInfo node) {
        if (ranges == null) {
            ranges = rebuildRanges();
        }
        return ranges.getOrDefault(node, List.of());
    }

    private Map<ClusterNodeInfo, List<ClusterNodeInfo.SlotRange>> rebuildRanges() {
        Map<ClusterNodeInfo, List<ClusterNodeInfo.SlotRange>> built = new HashMap<>();
        int slot = 0;
        while (slot < KeyHashSlot.SLOTS) {
            ClusterNodeInfo owner = ownerBySlot[slot];
            int first = slot;
            while (slot + 1 < KeyHashSlot.SLOTS && ownerBySlot[slot + 1] == owner) {
                slot++;
            }
            if (owner != null) {
                built.computeIfAbsent(owner, n -> new ArrayList<>()).add(new ClusterNodeInfo.SlotRange(first, slot));
            }
            slot++;
        }
        built.replaceAll((node, list) -> List.copyOf(list));
        return built;
    }

    /** How a node of this cluster is reached from another one on the same thread (MIGRATE's target). */
    public ClusterPeer peer(ClusterNodeInfo node) {
        return peers.get(node);
    }

    public void peer(ClusterNodeInfo node, ClusterPeer peer) {
        peers.put(node, peer);
    }
}
