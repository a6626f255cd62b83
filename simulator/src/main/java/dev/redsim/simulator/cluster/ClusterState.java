package dev.redsim.simulator.cluster;

import dev.redsim.simulator.command.ClusterGate;
import dev.redsim.simulator.keyspace.SlotIndex;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.util.KeyHashSlot;

import java.util.List;

/**
 * One node's cluster state (Redis's server.cluster): which node of the shared topology it is, and its keys by slot.
 * It answers the command processor's slot check (getNodeByQuery in cluster.c). A standalone server's state is never
 * joined: {@link #enabled()} stays false.
 */
public final class ClusterState implements ClusterGate {
    public static final String CROSSSLOT = "CROSSSLOT Keys in request don't hash to the same slot";

    private ClusterTopology topology;
    private ClusterNodeInfo myself;
    private SlotIndex slotIndex;
    private ClusterBus bus;

    /** Makes this server the node {@code myself} of the topology; engine thread only. */
    public void join(ClusterTopology topology, ClusterNodeInfo myself, SlotIndex slotIndex) {
        this.topology = topology;
        this.myself = myself;
        this.slotIndex = slotIndex;
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

    /**
     * The first key fixes the slot, every other key must hash to it (CROSSSLOT otherwise); a slot served elsewhere is
     * a MOVED to its node. Keys all hashing to one slot of this node, or no keys, run here.
     */
    @Override
    public String refusal(ClientConnection client, List<byte[]> keys, boolean readOnly) {
        if (keys.isEmpty()) {
            return null;
        }
        int slot = KeyHashSlot.of(keys.get(0));
        for (int i = 1; i < keys.size(); i++) {
            if (KeyHashSlot.of(keys.get(i)) != slot) {
                return CROSSSLOT;
            }
        }
        ClusterNodeInfo owner = topology.owner(slot);
        if (owner == null) {
            return "CLUSTERDOWN Hash slot not served";
        }
        if (owner != myself) {
            return "MOVED " + slot + " " + owner.address();
        }
        return null;
    }
}
