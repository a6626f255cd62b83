package dev.redsim.queue.connection;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.List;

/**
 * A failover on a real cluster by its commands: CLUSTER FAILOVER sent to a replica of the master (the manual failover
 * without FORCE: the master stops its clients' writes, the replica catches up with its replication stream, then takes
 * the master's slots with a new config epoch), then polled, by round trips and bounded, until every node's CLUSTER
 * NODES shows the replica as a master serving slots and the former master as its replica.
 */
final class CommandFailover {
    private CommandFailover() {
    }

    /** Fails {@code master} over to its first replica; returns the replica's address, its new master. */
    static HostAndPort toReplicaOf(HostAndPort master, List<HostAndPort> nodes, Duration bound) {
        String masterId;
        String replicaLine;
        try (Jedis jedis = new Jedis(master.getHost(), master.getPort())) {
            masterId = jedis.clusterMyId();
            List<String> replicas = jedis.clusterReplicas(masterId);
            if (replicas.isEmpty()) {
                throw new IllegalStateException(master + " has no replica to fail over to");
            }
            replicaLine = replicas.get(0);
        }
        String[] fields = replicaLine.split(" ");
        String replicaId = fields[0];
        HostAndPort replica = HostAndPort.from(fields[1].substring(0, fields[1].indexOf('@')));
        // a replica that was its shard's master a moment ago (an earlier failover) may still be resynchronising
        boolean following = ServerPoll.until(() -> linkUp(replica), bound);
        if (!following) {
            throw new IllegalStateException(replica + " never caught up with its master " + master);
        }
        try (Jedis jedis = new Jedis(replica.getHost(), replica.getPort())) {
            String reply = jedis.clusterFailover();
            if (!"OK".equals(reply)) {
                throw new IllegalStateException("CLUSTER FAILOVER answered " + reply);
            }
        }
        boolean done = ServerPoll.until(() -> nodes.stream().allMatch(node -> swapped(node, replicaId, masterId)),
                bound);
        if (!done) {
            throw new IllegalStateException("the failover of " + master + " to " + replica + " did not complete");
        }
        return replica;
    }

    private static boolean linkUp(HostAndPort replica) {
        try (Jedis jedis = new Jedis(replica.getHost(), replica.getPort())) {
            String replication = jedis.info("replication");
            return replication.contains("master_link_status:up") && replication.contains("master_sync_in_progress:0");
        }
    }

    /** Whether {@code node} sees {@code promoted} as a master with slots and {@code demoted} as its replica. */
    private static boolean swapped(HostAndPort node, String promoted, String demoted) {
        try (Jedis jedis = new Jedis(node.getHost(), node.getPort())) {
            boolean promotedServes = false;
            boolean demotedFollows = false;
            for (String line : jedis.clusterNodes().split("\n")) {
                String[] f = line.split(" ");
                if (f[0].equals(promoted)) {
                    promotedServes = f[2].contains("master") && f.length > 8;
                } else if (f[0].equals(demoted)) {
                    demotedFollows = f[2].contains("slave") && f[3].equals(promoted);
                }
            }
            return promotedServes && demotedFollows;
        }
    }
}
