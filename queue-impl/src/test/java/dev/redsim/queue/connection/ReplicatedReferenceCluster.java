package dev.redsim.queue.connection;

import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.Targets;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * One real cluster of 3 masters with a replica each per JVM, for the failover runs (as SharedClusters keeps one
 * without replicas): starting six redis-servers and waiting for the replicas to synchronise takes longer than a run.
 * Each run fails over the master of its own new tag's slot, whichever node that is by then (roles swap with every
 * failover), so runs need nothing from each other, except this: a master votes for a replica of a given master at most
 * once per twice cluster-node-timeout (30 s by default), so a third failover of one shard within 30 s of the first
 * gets no votes and never completes. Runs therefore pick their tags on the shard failed over least so far
 * ({@link #failovers}), which spreads four runs over three shards as 2, 1, 1. Stopped when the JVM exits.
 */
final class ReplicatedReferenceCluster {
    private static RedisClusterTarget cluster;
    /** Failovers so far per shard, a shard named by its two nodes' addresses (sorted: roles swap). */
    private static final Map<String, Integer> FAILOVERS = new HashMap<>();

    private ReplicatedReferenceCluster() {
    }

    static synchronized RedisClusterTarget get() {
        if (cluster == null) {
            cluster = Targets.referenceCluster(3, 1);
            RedisClusterTarget started = cluster;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "redis-replicated-cluster-stop"));
        }
        return cluster;
    }

    static synchronized int failovers(String shard) {
        return FAILOVERS.getOrDefault(shard, 0);
    }

    static synchronized void failedOver(String shard) {
        FAILOVERS.merge(shard, 1, Integer::sum);
    }

    /** The shards' failover counts' least value. */
    static synchronized int fewestFailovers(Collection<String> shards) {
        return shards.stream().mapToInt(ReplicatedReferenceCluster::failovers).min().orElse(0);
    }
}
