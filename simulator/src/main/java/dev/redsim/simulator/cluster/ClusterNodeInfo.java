package dev.redsim.simulator.cluster;

import java.util.List;

/**
 * One node as the whole cluster knows it: its 40-character hex ID, where clients reach it, the bus port it announces
 * (nothing listens there: the simulated nodes share one process and need no bus), its config epoch, and the slot
 * ranges it serves (inclusive, in slot order). The ID and addresses never change; the epoch and the slots change
 * with the {@link ClusterTopology} the node belongs to, on the engine thread (decision 0016).
 */
public final class ClusterNodeInfo {
    public record SlotRange(int first, int last) {
        public int size() {
            return last - first + 1;
        }
    }

    private final String id;
    private final String host;
    private final int port;
    private final int busPort;
    private long configEpoch;
    private final long initialConfigEpoch;
    /** The slots it was created with, until a topology takes the node in and answers for its slots from then on. */
    private final List<SlotRange> initialSlots;
    private ClusterTopology topology;
    /** The master this node replicates, or null for a master (Redis's node->slaveof); changed by a failover. */
    private ClusterNodeInfo master;
    private ClusterNodeInfo initialMaster;
    /**
     * What the other nodes believe of this node's health (Redis's CLUSTER_NODE_PFAIL / CLUSTER_NODE_FAIL flags): one
     * belief for the whole cluster, as every node reads one topology (decision 0028).
     */
    public enum Health { OK, PFAIL, FAIL }

    /** Whether the node's process is down (a test stopped it): its port refuses connections, it answers no ping. */
    private boolean stopped;
    /** When it stopped: the moment the others' last ping went unanswered. */
    private long stoppedAtMillis;
    private Health health = Health.OK;
    /** When the others agreed it failed (Redis's fail_time), for the FAIL flag's undo and the replicas' election. */
    private long failedAtMillis;
    /** The node's replication offset (its master_repl_offset), read by SLOTS and SHARDS as Redis reads node->repl_offset. */
    private java.util.function.LongSupplier replicationOffset = () -> 0;

    public ClusterNodeInfo(String id, String host, int port, int busPort, long configEpoch, List<SlotRange> slots) {
        this.id = id;
        this.host = host;
        this.port = port;
        this.busPort = busPort;
        this.configEpoch = configEpoch;
        this.initialConfigEpoch = configEpoch;
        this.initialSlots = List.copyOf(slots);
    }

    public String id() {
        return id;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public int busPort() {
        return busPort;
    }

    /** The node's own config epoch (a replica's is the one it had as a master, or its creation's). */
    public long configEpoch() {
        return configEpoch;
    }

    /** The epoch CLUSTER NODES shows and cluster_my_epoch reports: a replica shows its master's. */
    public long shownEpoch() {
        return master != null ? master.configEpoch() : configEpoch;
    }

    /** The master this node replicates, or null when it is a master. */
    public ClusterNodeInfo master() {
        return master;
    }

    public boolean isReplica() {
        return master != null;
    }

    /** Makes this node a replica of {@code master}, or a master again with null (engine thread only). */
    void master(ClusterNodeInfo master) {
        this.master = master;
    }

    /** Created as a replica of {@code master}: what {@link ClusterTopology#restoreInitial} gives back. */
    public void initialMaster(ClusterNodeInfo master) {
        this.initialMaster = master;
        this.master = master;
    }

    ClusterNodeInfo initialMaster() {
        return initialMaster;
    }

    public long replicationOffset() {
        return replicationOffset.getAsLong();
    }

    /** Where the node's replication offset is read (its engine's), set when the node joins its cluster. */
    public void replicationOffset(java.util.function.LongSupplier offset) {
        this.replicationOffset = offset;
    }

    public boolean stopped() {
        return stopped;
    }

    public long stoppedAtMillis() {
        return stoppedAtMillis;
    }

    /** The process went down at {@code now} (true) or came back (false). Engine thread only. */
    public void stopped(boolean down, long now) {
        this.stopped = down;
        if (down) {
            stoppedAtMillis = now;
        }
    }

    public Health health() {
        return health;
    }

    public long failedAtMillis() {
        return failedAtMillis;
    }

    void health(Health health, long now) {
        if (health == Health.FAIL && this.health != Health.FAIL) {
            failedAtMillis = now;
        }
        this.health = health;
    }

    /** Neither PFAIL nor FAIL: what Redis counts as a reachable node. */
    public boolean reachable() {
        return health == Health.OK;
    }

    void configEpoch(long epoch) {
        this.configEpoch = epoch;
    }

    /** The slot ranges the node serves now, in slot order. */
    public List<SlotRange> slots() {
        return topology == null ? initialSlots : topology.rangesOf(this);
    }

    long initialConfigEpoch() {
        return initialConfigEpoch;
    }

    List<SlotRange> initialSlots() {
        return initialSlots;
    }

    void joined(ClusterTopology topology) {
        if (this.topology != null && this.topology != topology) {
            throw new IllegalStateException("node " + id + " belongs to another cluster");
        }
        this.topology = topology;
    }

    public String address() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return id + " " + address();
    }
}
