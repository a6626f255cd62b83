package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replicas and failover on a simulated cluster of 3 masters with a replica each and on a real one (redis-cli --cluster
 * create --cluster-replicas 1), the same commands on the same nodes, every reply compared as {@link ClusterReplies}
 * names them: CLUSTER SLOTS / SHARDS / NODES / LINKS / REPLICAS / INFO with replicas, a replica's MOVED and
 * -READONLY, READONLY reads and READWRITE, ROLE and INFO replication on both sides, CLUSTER FAILOVER's errors, and a
 * failover: the new master's epoch, the former master as its replica, MOVED to the new master, and the data written
 * before it. Nodes 0-2 are the masters in slot order, node 3 + i the replica of master i. Where the real cluster works
 * in the background (replicas catching up, the failover, gossip), the sequence polls it by round trips, bounded.
 */
class ClusterReplicasConformanceTest {
    /** Keys served by masters 0, 1 and 2 (slots 3300, 7365 and 15495). */
    private static final String[] KEY_OF = {"b", "c", "a"};

    private static List<String> on(Consumer<ClusterNodesSession> sequence, boolean real) {
        if (real) {
            try (RedisClusterTarget cluster = Targets.referenceCluster(3, 1);
                 ClusterNodesSession session = new ClusterNodesSession("127.0.0.1",
                         cluster.nodes().stream().map(RedisTarget::port).toList())) {
                sequence.accept(session);
                return session.log();
            }
        }
        try (RedisCluster cluster = RedisSimulator.cluster().replicas(1).start();
             ClusterNodesSession session = new ClusterNodesSession(cluster.host(), cluster.ports())) {
            sequence.accept(session);
            return session.log();
        }
    }

    private static void sameOnBoth(Consumer<ClusterNodesSession> sequence) {
        List<String> real = on(sequence, true);
        List<String> simulated = on(sequence, false);
        assertThat(simulated).containsExactlyElementsOf(real);
    }

    @Test
    void replicasAnswerAsOnARealCluster() {
        sameOnBoth(ClusterReplicasConformanceTest::replicas);
    }

    @Test
    void aReplicaFailsOverAsOnARealCluster() {
        sameOnBoth(ClusterReplicasConformanceTest::failover);
    }

    /** One write on every master, then until every replica holds it and every node lists every replica. */
    private static void writeOnEveryShardAndCatchUp(ClusterNodesSession s) {
        for (int master = 0; master < 3; master++) {
            s.step(master, "SET", KEY_OF[master], "v" + master);
        }
        awaitCaughtUp(s);
    }

    /** Every replica's offset is its master's, and every node's CLUSTER SLOTS lists a replica for each range. */
    static void awaitCaughtUp(ClusterNodesSession s) {
        s.await("replicas to catch up", () -> {
            for (int node = 0; node < 6; node++) {
                RespClient client = s.client(node);
                String info = client.call("INFO", "replication").text();
                if (info.contains("role:slave")) {
                    int masterPort = Integer.parseInt(field(info, "master_port"));
                    int master = -1;
                    for (int i = 0; i < 6; i++) {
                        if (s.port(i) == masterPort) {
                            master = i;
                        }
                    }
                    String masterInfo = s.client(master).call("INFO", "replication").text();
                    if (!field(info, "slave_repl_offset").equals(field(masterInfo, "master_repl_offset"))) {
                        return false;
                    }
                }
                for (var range : client.call("CLUSTER", "SLOTS").children()) {
                    if (range.children().size() != 4) {
                        return false;
                    }
                }
            }
            return true;
        });
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1);
            }
        }
        return "";
    }

    /** The replication fields that do not count bytes (offsets move with each server's keepalive PINGs). */
    private static void replicationInfo(ClusterNodesSession s, ClusterReplies names, int node) {
        String info = s.client(node).call("INFO", "replication").text();
        for (String name : new String[] {"role", "master_host", "master_port", "master_link_status",
            "master_sync_in_progress", "slave_priority", "slave_read_only", "replica_announced", "connected_slaves",
            "master_failover_state", "repl_backlog_active"}) {
            String value = field(info, name);
            if (!value.isEmpty()) {
                s.note(node + "> INFO " + name + ":" + names.named(value));
            }
        }
        String slave0 = field(info, "slave0");
        if (!slave0.isEmpty()) {
            s.note(node + "> INFO slave0:" + names.named(slave0.replaceAll(",offset=\\d+,lag=\\d+", "")));
        }
        boolean sameHistory = field(info, "master_replid").length() == 40;
        s.note(node + "> INFO replid of 40 characters: " + sameHistory);
    }

    /** ROLE without the offsets, which must be the master's on the replica and on the master's replica line. */
    private static void role(ClusterNodesSession s, ClusterReplies names, int node) {
        var role = s.client(node).call("ROLE").children();
        if (role.get(0).text().equals("slave")) {
            s.note(node + "> ROLE slave " + names.named(role.get(1).text() + ":" + role.get(2).text()) + " "
                    + role.get(3).text());
        } else {
            StringBuilder line = new StringBuilder(node + "> ROLE master");
            for (var replica : role.get(2).children()) {
                line.append(' ').append(names.named(replica.children().get(0).text() + ":"
                        + replica.children().get(1).text()));
            }
            s.note(line.toString());
        }
    }

    private static void replicas(ClusterNodesSession s) {
        ClusterReplies names = new ClusterReplies(s.client(0));
        // before any write: a replica's offset is 0, so CLUSTER SLOTS leaves it out and SHARDS says "loading"
        s.step(3, "DBSIZE");
        writeOnEveryShardAndCatchUp(s);
        for (int node : new int[] {0, 3}) {
            s.step(node, "CLUSTER", "SLOTS");
            s.step(node, "CLUSTER", "SHARDS");
            s.step(node, "CLUSTER", "NODES");
            s.step(node, "CLUSTER", "INFO");
            s.step(node, "CLUSTER", "LINKS");
            s.step(node, "CLUSTER", "REPLICAS", s.id(0));
            s.step(node, "CLUSTER", "SLAVES", s.id(1));
            s.step(node, "CLUSTER", "REPLICAS", s.id(4));
            s.step(node, "CLUSTER", "REPLICAS", "nosuchnode");
            s.step(node, "CLUSTER", "COUNTKEYSINSLOT", "3300");
            replicationInfo(s, names, node);
            role(s, names, node);
        }
        // a replica redirects every key to its master, serves reads of its master's slots after READONLY, never writes
        s.step(3, "GET", "b");
        s.step(3, "SET", "b", "x");
        s.step(3, "FLUSHALL");
        s.step(3, "DBSIZE");
        s.step(3, "READONLY", "extra");
        s.step(3, "READONLY");
        s.step(3, "GET", "b");
        s.step(3, "GET", "c");
        s.step(3, "MGET", "b", "{b}none");
        s.step(3, "SET", "b", "x");
        s.step(3, "INCR", "{b}n");
        s.step(3, "FLUSHALL");
        s.step(3, "MULTI");
        s.step(3, "GET", "b");
        s.step(3, "EXEC");
        s.step(3, "MULTI");
        s.step(3, "GET", "b");
        s.step(3, "SET", "b", "x");
        s.step(3, "EXEC");
        s.step(3, "EVAL_RO", "return redis.call('get', KEYS[1])", "1", "b");
        s.step(3, "EVAL", "return redis.call('get', KEYS[1])", "1", "b");
        s.step(3, "SPUBLISH", "b", "m");
        s.step(3, "SPUBLISH", "c", "m");
        s.step(3, "READWRITE");
        s.step(3, "GET", "b");
        s.step(3, "SPUBLISH", "b", "m");
        // the master's writes reach the replica, a WAIT on the master counts it
        s.step(0, "DEL", "b");
        s.step(0, "RPUSH", "{b}list", "1", "2");
        s.step(0, "WAIT", "1", "5000");
        awaitCaughtUp(s);
        s.step(3, "READONLY");
        s.step(3, "EXISTS", "b");
        s.step(3, "LRANGE", "{b}list", "0", "-1");
        s.step(3, "DBSIZE");
        // CLUSTER FAILOVER's errors
        s.step(0, "CLUSTER", "FAILOVER");
        s.step(0, "CLUSTER", "FAILOVER", "FORCE");
        s.step(0, "CLUSTER", "FAILOVER", "TAKEOVER");
        s.step(3, "CLUSTER", "FAILOVER", "BOGUS");
        s.step(3, "CLUSTER", "FAILOVER", "FORCE", "x");
        // CLUSTER FORGET's refusals: a node's own ID, and a replica's master
        s.step(3, "CLUSTER", "FORGET", s.id(3));
        s.step(3, "CLUSTER", "FORGET", s.id(0));
        s.step(0, "CLUSTER", "FORGET", s.id(0));
    }

    private static void failover(ClusterNodesSession s) {
        ClusterReplies names = new ClusterReplies(s.client(0));
        writeOnEveryShardAndCatchUp(s);
        s.step(0, "RPUSH", "{b}list", "1", "2", "3");
        s.step(3, "CLUSTER", "FAILOVER");
        // a real cluster fails over in the next milliseconds: wait until node 3 is the master and every node agrees
        s.await("node 3 to take over", () -> s.client(3).call("ROLE").children().get(0).text().equals("master")
                && s.client(0).call("ROLE").children().get(0).text().equals("slave"));
        s.awaitAgreement();
        awaitCaughtUp(s);
        for (int node : new int[] {3, 0, 1}) {
            s.step(node, "CLUSTER", "NODES");
            s.step(node, "CLUSTER", "INFO");
        }
        s.step(1, "CLUSTER", "SHARDS");
        s.step(0, "CLUSTER", "SLOTS");
        s.step(3, "CLUSTER", "REPLICAS", s.id(3));
        s.step(3, "CLUSTER", "REPLICAS", s.id(0));
        replicationInfo(s, names, 3);
        replicationInfo(s, names, 0);
        role(s, names, 3);
        role(s, names, 0);
        // clients are sent to the new master, which has what the old one acknowledged
        s.step(0, "GET", "b");
        s.step(1, "GET", "b");
        s.step(3, "GET", "b");
        s.step(3, "LRANGE", "{b}list", "0", "-1");
        s.step(3, "SET", "b", "after");
        s.step(3, "WAIT", "1", "5000");
        awaitCaughtUp(s);
        s.step(0, "READONLY");
        s.step(0, "GET", "b");
        s.step(0, "SET", "b", "x");
        // and back: the former master takes over again with TAKEOVER (no election, its epoch bumped)
        s.step(0, "CLUSTER", "FAILOVER", "TAKEOVER");
        s.await("node 0 to take over again", () -> s.client(0).call("ROLE").children().get(0).text().equals("master")
                && s.client(3).call("ROLE").children().get(0).text().equals("slave"));
        s.awaitAgreement();
        awaitCaughtUp(s);
        s.step(0, "CLUSTER", "NODES");
        s.step(0, "CLUSTER", "INFO");
        s.step(0, "GET", "b");
        s.step(3, "GET", "b");
    }
}
