package dev.redsim.simulator.cluster;

import dev.redsim.simulator.command.ClusterGate;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.SlotIndex;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.util.KeyHashSlot;

import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One node's cluster state (Redis's server.cluster): which node of the shared topology it is, its keys by slot, and
 * the slots it is migrating to or importing from another node (this node's own, as in Redis: CLUSTER NODES shows
 * them on the "myself" line only). It answers the command processor's slot check (getNodeByQuery in cluster.c). A
 * standalone server's state is never joined: {@link #enabled()} stays false.
 */
public final class ClusterState implements ClusterGate {
    public static final String CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";
    public static final String TRYAGAIN = "TRYAGAIN Multiple keys request during rehashing of slot";
    public static final String SLOT_NOT_SERVED = "CLUSTERDOWN Hash slot not served";
    public static final String CLUSTER_DOWN = ClusterGate.CLUSTER_DOWN;
    public static final String CLUSTER_DOWN_READ_ONLY = ClusterGate.CLUSTER_DOWN_READ_ONLY;

    private ClusterTopology topology;
    private ClusterNodeInfo myself;
    private SlotIndex slotIndex;
    private Database keys;
    /** Slot -> the node it is being migrated to (migrating_slots_to), in slot order for CLUSTER NODES. */
    private final NavigableMap<Integer, ClusterNodeInfo> migratingTo = new TreeMap<>();
    /** Slot -> the node it is being imported from (importing_slots_from). */
    private final NavigableMap<Integer, ClusterNodeInfo> importingFrom = new TreeMap<>();
    private ClusterBus bus;
    /** The node's configuration: cluster-require-full-coverage and the cluster-allow-*-when-down switches. */
    private dev.redsim.simulator.engine.Config config;

    /** Makes this server the node {@code myself} of the topology; engine thread only. */
    public void join(ClusterTopology topology, ClusterNodeInfo myself, SlotIndex slotIndex) {
        this.topology = topology;
        this.myself = myself;
        this.slotIndex = slotIndex;
    }

    /**
     * As {@link #join(ClusterTopology, ClusterNodeInfo, SlotIndex)}, with the database whose keys the slot check looks
     * up while a slot is being migrated (database 0, the only one a cluster node has).
     */
    public void join(ClusterTopology topology, ClusterNodeInfo myself, Database db0) {
        join(topology, myself, db0.indexSlots());
        this.keys = db0;
    }

    /** Where the node's cluster switches are read (its own CONFIG); engine thread only. */
    public void config(dev.redsim.simulator.engine.Config config) {
        this.config = config;
    }

    private boolean flag(String name) {
        return config != null && "yes".equals(config.get(name));
    }

    /**
     * cluster_state as this node computes it (clusterUpdateState): its own cluster-require-full-coverage decides
     * whether an unserved slot, or a slot of a FAIL node, puts the cluster down; a minority of reachable masters
     * always does. Redis recomputes it in its cron; the simulator on each read, so a change shows at once.
     */
    public boolean stateOk() {
        return topology.stateOk(config == null || flag("cluster-require-full-coverage"));
    }

    /** This node's shard-channel subscribers of the slots {@code slots} accepts lose their subscriptions. */
    public void leftSlots(java.util.function.IntPredicate slots) {
        ClusterPeer self = topology.peer(myself);
        if (self != null) {
            self.leftSlots(slots);
        }
    }

    /** Connects this node to the others; engine thread only. */
    public void connect(ClusterBus bus) {
        this.bus = bus;
    }

    /**
     * PUBLISH on a cluster node: the message goes to every other node over the bus (clusterPropagatePublish), where
     * their subscribers receive it; the replies count only this node's receivers, as in Redis.
     */
    public void propagatePublish(byte[] channel, byte[] message) {
        if (bus != null) {
            bus.publish(myself, channel, message);
        }
    }

    /** SPUBLISH on a cluster node: the other nodes of its shard deliver it too (not the replication stream). */
    public void propagateShardPublish(byte[] channel, byte[] message) {
        if (bus != null) {
            bus.publishShard(myself, channel, message);
        }
    }

    /** CLUSTER FAILOVER on this replica, once its checks passed: see {@link ClusterBus#failover}. */
    public void failover(boolean election) {
        bus.failover(myself, election);
    }

    public boolean enabled() {
        return topology != null;
    }

    public ClusterTopology topology() {
        return topology;
    }

    public ClusterNodeInfo myself() {
        return myself;
    }

    public SlotIndex slotIndex() {
        return slotIndex;
    }

    /** The node a slot is being migrated to from here, or null. */
    public ClusterNodeInfo migratingTo(int slot) {
        return migratingTo.get(slot);
    }

    /** The node a slot is being imported from, or null. */
    public ClusterNodeInfo importingFrom(int slot) {
        return importingFrom.get(slot);
    }

    /** Slots being migrated away, in slot order. */
    public NavigableMap<Integer, ClusterNodeInfo> migratingSlots() {
        return java.util.Collections.unmodifiableNavigableMap(migratingTo);
    }

    /** Slots being imported, in slot order. */
    public NavigableMap<Integer, ClusterNodeInfo> importingSlots() {
        return java.util.Collections.unmodifiableNavigableMap(importingFrom);
    }

    public void migrating(int slot, ClusterNodeInfo to) {
        if (to == null) {
            migratingTo.remove(slot);
        } else {
            migratingTo.put(slot, to);
        }
    }

    public void importing(int slot, ClusterNodeInfo from) {
        if (from == null) {
            importingFrom.remove(slot);
        } else {
            importingFrom.put(slot, from);
        }
    }

    /** Forgets every slot this node was migrating or importing (with the topology's restore: a fresh start). */
    public void closeOpenSlots() {
        migratingTo.clear();
        importingFrom.clear();
    }

    @Override
    public String refusal(ClientConnection client, List<byte[]> keys, boolean readOnly) {
        return refusal(client, keys, readOnly, false, false, false);
    }

    /**
     * getNodeByQuery: the first key fixes the slot, every other key must hash to it (CROSSSLOT otherwise); an
     * unserved slot is CLUSTERDOWN, and so is any key while the cluster is not ok. A slot this node is migrating
     * serves the keys it still holds, sends a call whose keys are all gone elsewhere (ASK) and refuses one that is
     * split (TRYAGAIN); a slot it is importing serves a call flagged ASKING (TRYAGAIN when several different keys are
     * not all here yet). Otherwise a slot served elsewhere is a MOVED to its node. MIGRATE runs here while the slot
     * is open either way, to move the keys.
     */
    @Override
    public String refusal(ClientConnection client, List<byte[]> keys, boolean readOnly, boolean askingCommand,
                          boolean migrate) {
        return refusal(client, keys, readOnly, askingCommand, migrate, false);
    }

    @Override
    public String refusal(ClientConnection client, List<byte[]> keys, boolean readOnly, boolean askingCommand,
                          boolean migrate, boolean pubSub) {
        if (keys.isEmpty()) {
            return null;
        }
        byte[] first = keys.get(0);
        int slot = KeyHashSlot.of(first);
        ClusterNodeInfo owner = topology.owner(slot);
        if (owner == null) {
            return SLOT_NOT_SERVED;
        }
        boolean migrating = owner == myself && migratingTo.containsKey(slot);
        boolean importing = !migrating && importingFrom.containsKey(slot);
        boolean multipleKeys = false;
        int missing = 0;
        int existing = 0;
        for (int i = 0; i < keys.size(); i++) {
            byte[] key = keys.get(i);
            if (i > 0) {
                if (KeyHashSlot.of(key) != slot) {
                    return CROSSSLOT;
                }
                if (importing && !multipleKeys && !Arrays.equals(first, key)) {
                    multipleKeys = true;
                }
            }
            // the lookup of an open slot neither counts as a hit or miss nor touches the key (NOSTATS, NOTOUCH)
            if ((migrating || importing) && this.keys != null && this.keys.peek(Bytes.wrap(key)) == null) {
                missing++;
            } else {
                existing++;
            }
        }
        if (!stateOk()) {
            // getNodeByQuery with the cluster down: shard channels follow their own switch; otherwise reads only
            // when cluster-allow-reads-when-down says so
            if (pubSub) {
                if (!flag("cluster-allow-pubsubshard-when-down")) {
                    return CLUSTER_DOWN;
                }
            } else if (!flag("cluster-allow-reads-when-down")) {
                return CLUSTER_DOWN;
            } else if (!readOnly) {
                return CLUSTER_DOWN_READ_ONLY;
            }
        }
        if ((migrating || importing) && migrate) {
            return null;
        }
        if (migrating && missing > 0) {
            return existing > 0 ? TRYAGAIN : "ASK " + slot + " " + migratingTo.get(slot).address();
        }
        if (importing && (client.asking() || askingCommand)) {
            return multipleKeys && missing > 0 ? TRYAGAIN : null;
        }
        if (owner != myself && (readOnly && client.readOnlyReplicaReads() || pubSub) && myself.master() == owner) {
            return null; // a replica serves reads of its master's slots to a READONLY client, and shard channels
        }
        if (owner != myself) {
            return "MOVED " + slot + " " + owner.address();
        }
        return null;
    }
}
