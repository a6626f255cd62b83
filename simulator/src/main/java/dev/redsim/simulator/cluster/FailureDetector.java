package dev.redsim.simulator.cluster;

/**
 * How the nodes of a simulated cluster come to believe that one of them is down, and what follows, on the cluster's
 * one clock (decision 0028), as a redis-server 7.0 cluster does it by pings and gossip (cluster.c: clusterCron,
 * markNodeAsFailingIfNeeded, clearNodeFailureIfNeeded, clusterHandleSlaveFailover):
 * <ul>
 *   <li>A stopped node answers no ping: {@code cluster-node-timeout} after it stopped it is PFAIL ("fail?").</li>
 *   <li>Half a node timeout later (the failure reports travel in the pings each node sends every peer it has not
 *   heard from for half a timeout) it is FAIL, if a majority of the masters serving slots could report it; a
 *   minority never agrees.</li>
 *   <li>A replica of a FAIL master with slots wins an election 500 ms + 1 s per better-placed replica after the
 *   FAIL (Redis adds 0-500 ms at random; taken as 0 here), if a majority of the masters serving slots can vote and
 *   {@code cluster-replica-no-failover} is off: it takes the next epoch and its master's slots
 *   ({@link ClusterTopology#promote}).</li>
 *   <li>A node that answers again loses PFAIL at once; FAIL too when it is a replica or a master without slots, and a
 *   master still serving slots keeps it for two node timeouts after the FAIL.</li>
 * </ul>
 * A verdict's time is the moment it became due, not the moment this runs, so moving the clock far forward in one step
 * gives the same result as moving it in small ones. Engine thread only.
 */
public final class FailureDetector {
    /** Redis's CLUSTER_FAIL_UNDO_TIME_MULT. */
    private static final long FAIL_UNDO_TIME_MULT = 2;
    /** The fixed part of a replica's election delay (clusterHandleSlaveFailover), and the step per rank. */
    private static final long ELECTION_DELAY_MS = 500;
    private static final long ELECTION_RANK_DELAY_MS = 1000;

    /** A node's own settings, read from its configuration when the detector runs. */
    public interface NodeSettings {
        /** cluster-node-timeout of the node, in milliseconds. */
        long nodeTimeout(ClusterNodeInfo node);

        /** cluster-replica-no-failover of the node. */
        boolean noFailover(ClusterNodeInfo node);
    }

    private final ClusterTopology topology;
    private final NodeSettings settings;

    public FailureDetector(ClusterTopology topology, NodeSettings settings) {
        this.topology = topology;
        this.settings = settings;
    }

    /**
     * Brings every verdict up to {@code now}; each replica that wins an election goes to {@code elected}, which must
     * put it in its master's place ({@link ClusterTopology#promote}, with the replication links and roles). Returns
     * how many won.
     */
    public int advance(long now, java.util.function.Consumer<ClusterNodeInfo> elected) {
        int promoted = 0;
        boolean changed = true;
        while (changed) { // a verdict may make another one due (FAIL, then the election)
            changed = false;
            for (ClusterNodeInfo node : topology.nodes()) {
                changed |= judge(node, now);
            }
            for (ClusterNodeInfo master : topology.masters()) {
                ClusterNodeInfo winner = election(master, now);
                if (winner != null) {
                    elected.accept(winner);
                    if (winner.isReplica()) {
                        throw new IllegalStateException("the elected replica was not promoted: " + winner);
                    }
                    promoted++;
                    changed = true;
                }
            }
        }
        return promoted;
    }

    private boolean judge(ClusterNodeInfo node, long now) {
        long timeout = observerTimeout();
        ClusterNodeInfo.Health health = node.health();
        if (node.stopped()) {
            long pfailAt = node.stoppedAtMillis() + timeout;
            long failAt = pfailAt + timeout / 2;
            if (health == ClusterNodeInfo.Health.OK && now >= pfailAt) {
                topology.health(node, ClusterNodeInfo.Health.PFAIL, pfailAt);
                return true;
            }
            if (health == ClusterNodeInfo.Health.PFAIL && now >= failAt && reporters(node) >= quorum()) {
                topology.health(node, ClusterNodeInfo.Health.FAIL, failAt);
                return true;
            }
            return false;
        }
        if (health == ClusterNodeInfo.Health.PFAIL) {
            topology.health(node, ClusterNodeInfo.Health.OK, now);
            return true;
        }
        if (health == ClusterNodeInfo.Health.FAIL && (node.isReplica() || node.slots().isEmpty()
                || now >= node.failedAtMillis() + FAIL_UNDO_TIME_MULT * timeout)) {
            topology.health(node, ClusterNodeInfo.Health.OK, now);
            return true;
        }
        return false;
    }

    /**
     * The replica of a FAIL master with slots that wins its election now, or null: the running replica with the
     * highest replication offset (the first on a tie), once its delay has passed and enough masters can vote.
     */
    private ClusterNodeInfo election(ClusterNodeInfo master, long now) {
        if (master.health() != ClusterNodeInfo.Health.FAIL || master.slots().isEmpty()) {
            return null;
        }
        ClusterNodeInfo best = null;
        for (ClusterNodeInfo replica : topology.replicasOf(master)) {
            if (replica.stopped() || !replica.reachable() || settings.noFailover(replica)) {
                continue;
            }
            if (best == null || replica.replicationOffset() > best.replicationOffset()) {
                best = replica;
            }
        }
        if (best == null || now < master.failedAtMillis() + ELECTION_DELAY_MS + rank(best) * ELECTION_RANK_DELAY_MS) {
            return null;
        }
        int voters = 0;
        for (ClusterNodeInfo node : topology.masters()) {
            if (node != master && !node.stopped() && node.reachable() && !node.slots().isEmpty()) {
                voters++;
            }
        }
        return voters >= quorum() ? best : null;
    }

    /** clusterGetSlaveRank: how many other replicas of the same master have a greater replication offset. */
    private int rank(ClusterNodeInfo replica) {
        int rank = 0;
        for (ClusterNodeInfo other : topology.replicasOf(replica.master())) {
            if (other != replica && other.replicationOffset() > replica.replicationOffset()) {
                rank++;
            }
        }
        return rank;
    }

    /** The masters that can report a node as failing: every running, reachable master other than that node. */
    private int reporters(ClusterNodeInfo failing) {
        int count = 0;
        for (ClusterNodeInfo node : topology.masters()) {
            if (node != failing && !node.stopped() && node.reachable()) {
                count++;
            }
        }
        return count;
    }

    /** needed_quorum: a majority of the masters that serve slots. */
    private int quorum() {
        return topology.size() / 2 + 1;
    }

    /** The node timeout of the first running node in creation order (every node judges alike: one topology). */
    private long observerTimeout() {
        for (ClusterNodeInfo node : topology.nodes()) {
            if (!node.stopped()) {
                return settings.nodeTimeout(node);
            }
        }
        return settings.nodeTimeout(topology.nodes().get(0));
    }
}
