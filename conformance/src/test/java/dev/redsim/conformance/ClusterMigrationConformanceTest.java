package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.util.KeyHashSlot;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Slot migration on a simulated 3-master cluster and on a real one (redis-server 7.0 from PATH), with the same CLUSTER
 * and MIGRATE commands on the same nodes, every reply compared (node IDs, ports and times named, see
 * {@link ClusterReplies}): SETSLOT IMPORTING / MIGRATING / NODE / STABLE and their errors, the migrating and
 * importing brackets of CLUSTER NODES, -ASK, -TRYAGAIN, ASKING (alone and around MULTI), MIGRATE with COPY, REPLACE,
 * AUTH, AUTH2 (wrong and right passwords on a target that requires one), KEYS and its errors, the config epoch the
 * importing node takes, ADDSLOTS / DELSLOTS and their RANGE forms, CLUSTERDOWN while a slot is unserved, BUMPEPOCH and
 * SET-CONFIG-EPOCH. Each sequence starts on fresh clusters, and where a real cluster spreads a change by gossip the
 * sequence waits (bounded) until its nodes agree.
 */
class ClusterMigrationConformanceTest {
    private static final int OTHER = 0;
    private static final int TARGET = 1;
    private static final int SOURCE = 2;
    /** {foo}: slot 12182, served by the third master on both clusters. */
    private static final int SLOT = KeyHashSlot.of("{foo}".getBytes(StandardCharsets.UTF_8));

    private static List<String> onBoth(Consumer<ClusterNodesSession> sequence, boolean real) {
        if (real) {
            try (RedisClusterTarget cluster = Targets.referenceCluster(3, 0);
                 ClusterNodesSession session = new ClusterNodesSession("127.0.0.1",
                         cluster.nodes().stream().map(RedisTarget::port).toList())) {
                sequence.accept(session);
                return session.log();
            }
        }
        try (RedisCluster cluster = RedisSimulator.cluster().start();
             ClusterNodesSession session = new ClusterNodesSession(cluster.host(), cluster.ports())) {
            sequence.accept(session);
            return session.log();
        }
    }

    private static void sameOnBoth(Consumer<ClusterNodesSession> sequence) {
        List<String> real = onBoth(sequence, true);
        List<String> simulated = onBoth(sequence, false);
        assertThat(simulated).containsExactlyElementsOf(real);
    }

    @Test
    void aSlotMigratesWithSetslotAndMigrateAsOnARealCluster() {
        assertThat(SLOT).isEqualTo(12182);
        sameOnBoth(ClusterMigrationConformanceTest::migrateSlot);
    }

    private static void migrateSlot(ClusterNodesSession s) {
        String slot = Integer.toString(SLOT);
        String target = s.host() + " " + s.port(TARGET);
        s.step(SOURCE, "SET", "foo", "1");
        s.step(SOURCE, "RPUSH", "{foo}list", "a", "b", "c");
        s.step(SOURCE, "HSET", "{foo}hash", "f", "v");
        s.step(SOURCE, "SET", "{foo}ttl", "t", "PX", "1000000");
        s.step(SOURCE, "ZADD", "{foo}zset", "1", "m");
        // opening the slot: the errors first, then redis-cli's order (importing on the target, then migrating)
        s.step(TARGET, "CLUSTER", "SETSLOT", slot, "IMPORTING", "nosuchnode");
        s.step(SOURCE, "CLUSTER", "SETSLOT", slot, "IMPORTING", s.id(TARGET));
        s.step(TARGET, "CLUSTER", "SETSLOT", slot, "MIGRATING", s.id(SOURCE));
        s.step(SOURCE, "CLUSTER", "SETSLOT", slot, "MIGRATING", "nosuchnode");
        s.step(SOURCE, "CLUSTER", "SETSLOT", "16384", "STABLE");
        s.step(SOURCE, "CLUSTER", "SETSLOT", "x", "STABLE");
        s.step(SOURCE, "CLUSTER", "SETSLOT", slot, "BOGUS");
        s.step(SOURCE, "CLUSTER", "SETSLOT", slot, "STABLE", "extra");
        s.step(SOURCE, "CLUSTER", "SETSLOT", slot, "NODE", "nosuchnode");
        s.step(TARGET, "CLUSTER", "SETSLOT", slot, "IMPORTING", s.id(SOURCE));
        s.step(SOURCE, "CLUSTER", "SETSLOT", slot, "MIGRATING", s.id(TARGET));
        s.step(SOURCE, "CLUSTER", "NODES");
        s.step(TARGET, "CLUSTER", "NODES");
        s.step(OTHER, "CLUSTER", "NODES");
        // the source serves what it still has, asks the client to go to the target for the rest
        s.step(SOURCE, "GET", "foo");
        s.step(SOURCE, "GET", "{foo}missing");
        s.step(SOURCE, "SET", "{foo}new", "1");
        s.step(SOURCE, "MGET", "foo", "{foo}missing");
        s.step(SOURCE, "MGET", "foo", "{foo}ttl");
        s.step(SOURCE, "DEL", "{foo}missing", "{foo}other");
        s.step(SOURCE, "CLUSTER", "COUNTKEYSINSLOT", slot);
        s.step(OTHER, "GET", "foo");
        // the target serves the slot only after ASKING, for the next command (or the transaction it opens)
        s.step(TARGET, "GET", "{foo}missing");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "GET", "{foo}missing");
        s.step(TARGET, "GET", "{foo}missing");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "SET", "{foo}new", "n");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "MGET", "{foo}new", "{foo}missing");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "MGET", "{foo}new", "{foo}new");
        s.step(TARGET, "MULTI");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "GET", "{foo}new");
        s.step(TARGET, "EXEC");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "MULTI");
        s.step(TARGET, "GET", "{foo}new");
        s.step(TARGET, "EXEC");
        s.step(TARGET, "GET", "{foo}new");
        s.step(TARGET, "READONLY");
        s.step(TARGET, "GET", "{foo}new");
        s.step(TARGET, "READWRITE");
        // MIGRATE: its argument errors, then the keys one by one and in a batch
        String[] migrateErrors = {"nokey 0 1000", "foo x 1000", "foo 0 x", "foo 0 1000 BOGUS", "foo 0 1000 KEYS a",
            "foo 0 1000 AUTH", "foo 0 1000 AUTH2 u", "foo 0 1000 AUTH pw", "foo 0 1000 AUTH2 u pw",
            "foo 1 1000 COPY"};
        for (String args : migrateErrors) {
            s.step(SOURCE, ("MIGRATE " + target + " " + args).split(" "));
        }
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(OTHER)), "foo", "0", "1000");
        s.step(SOURCE, "MIGRATE", s.host(), "1", "foo", "0", "1000");
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(TARGET)), "", "0", "1000", "KEYS", "{foo}list",
                "{foo}hash", "other");
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(TARGET)), "", "0", "1000", "KEYS");
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(TARGET)), "", "0", "1000", "KEYS", "nokey");
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(TARGET)), "foo", "0", "1000", "COPY");
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(TARGET)), "foo", "0", "1000", "COPY");
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(TARGET)), "foo", "0", "1000", "REPLACE");
        s.step(SOURCE, "GET", "foo");
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(TARGET)), "", "0", "0", "REPLACE", "KEYS",
                "{foo}list", "{foo}hash", "{foo}ttl", "{foo}zset");
        s.step(SOURCE, "MIGRATE", s.host(), Integer.toString(s.port(TARGET)), "", "0", "1000", "KEYS", "{foo}list",
                "{foo}hash", "{foo}ttl", "{foo}zset");
        s.step(SOURCE, "CLUSTER", "COUNTKEYSINSLOT", slot);
        s.step(SOURCE, "DBSIZE");
        s.step(TARGET, "CLUSTER", "COUNTKEYSINSLOT", slot);
        s.step(TARGET, "ASKING");
        s.step(TARGET, "LRANGE", "{foo}list", "0", "-1");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "TTL", "{foo}ttl");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "ZRANGE", "{foo}zset", "0", "-1", "WITHSCORES");
        // closing: the target first (it takes a new config epoch), then the source, then the other node
        s.step(TARGET, "CLUSTER", "SETSLOT", slot, "NODE", s.id(TARGET));
        s.step(TARGET, "CLUSTER", "NODES");
        s.step(SOURCE, "CLUSTER", "SETSLOT", slot, "NODE", s.id(TARGET));
        s.step(OTHER, "CLUSTER", "SETSLOT", slot, "NODE", s.id(TARGET));
        s.awaitAgreement();
        for (int node = 0; node < 3; node++) {
            s.step(node, "GET", "foo");
            s.step(node, "HGETALL", "{foo}hash");
            s.step(node, "CLUSTER", "NODES");
            s.step(node, "CLUSTER", "SLOTS");
            s.step(node, "CLUSTER", "SHARDS");
            s.step(node, "CLUSTER", "INFO");
        }
        s.step(TARGET, "CLUSTER", "SETSLOT", slot, "MIGRATING", s.id(SOURCE));
        s.step(TARGET, "CLUSTER", "NODES");
        s.step(TARGET, "CLUSTER", "SETSLOT", slot, "STABLE");
        s.step(TARGET, "CLUSTER", "NODES");
    }

    @Test
    void migrateAuthenticatesOnAPasswordProtectedTargetAsOnARealCluster() {
        sameOnBoth(ClusterMigrationConformanceTest::migrateWithAuth);
    }

    /**
     * MIGRATE's AUTH and AUTH2 against a target that requires a password and has an ACL user: the target's refusals
     * (NOAUTH, WRONGPASS, NOPERM for RESTORE-ASKING) come back in MIGRATE's "Target instance replied with error" and
     * leave the keys on the source; a right password moves them (or copies them, with COPY).
     */
    private static void migrateWithAuth(ClusterNodesSession s) {
        String slot = Integer.toString(SLOT);
        String port = Integer.toString(s.port(TARGET));
        for (String key : new String[] {"foo", "{foo}b", "{foo}c", "{foo}d"}) {
            s.step(SOURCE, "SET", key, key + "-value");
        }
        s.step(TARGET, "CLUSTER", "SETSLOT", slot, "IMPORTING", s.id(SOURCE));
        s.step(SOURCE, "CLUSTER", "SETSLOT", slot, "MIGRATING", s.id(TARGET));
        s.step(TARGET, "ACL", "SETUSER", "mover", "on", ">moverpass", "~*", "+@all");
        s.step(TARGET, "ACL", "SETUSER", "blocked", "on", ">blockedpass", "~*", "+@all", "-restore-asking");
        s.step(TARGET, "CONFIG", "SET", "requirepass", "secret");
        s.step(SOURCE, "MIGRATE", s.host(), port, "foo", "0", "1000");
        s.step(SOURCE, "MIGRATE", s.host(), port, "foo", "0", "1000", "AUTH", "wrong");
        s.step(SOURCE, "MIGRATE", s.host(), port, "", "0", "1000", "AUTH2", "mover", "wrong", "KEYS", "foo");
        s.step(SOURCE, "MIGRATE", s.host(), port, "", "0", "1000", "AUTH2", "blocked", "blockedpass", "KEYS", "foo");
        s.step(SOURCE, "DBSIZE");
        s.step(SOURCE, "MIGRATE", s.host(), port, "foo", "0", "1000", "AUTH", "secret");
        s.step(SOURCE, "MIGRATE", s.host(), port, "", "0", "1000", "AUTH2", "mover", "moverpass", "KEYS", "{foo}b");
        s.step(SOURCE, "MIGRATE", s.host(), port, "", "0", "1000", "COPY", "AUTH2", "default", "secret", "KEYS",
                "{foo}c");
        s.step(SOURCE, "MIGRATE", s.host(), port, "", "0", "1000", "AUTH", "secret", "KEYS", "{foo}c");
        s.step(SOURCE, "MIGRATE", s.host(), port, "", "0", "1000", "REPLACE", "AUTH", "secret", "KEYS", "{foo}c",
                "{foo}d");
        s.step(SOURCE, "DBSIZE");
        s.step(TARGET, "ASKING");
        s.step(TARGET, "MGET", "foo", "{foo}b", "{foo}c", "{foo}d");
        s.step(TARGET, "INFO", "keyspace");
    }

    @Test
    void slotsAreAssignedAndEpochsBumpedAsOnARealCluster() {
        sameOnBoth(ClusterMigrationConformanceTest::assignSlots);
    }

    /** The first of k0, k1, ... that hashes to a slot. */
    private static String keyInSlot(int slot) {
        for (int i = 0; ; i++) {
            if (KeyHashSlot.of(("k" + i).getBytes(StandardCharsets.UTF_8)) == slot) {
                return "k" + i;
            }
        }
    }

    private static void assignSlots(ClusterNodesSession s) {
        String[] errors = {"ADDSLOTS 0", "ADDSLOTS 6000", "ADDSLOTS 16384", "ADDSLOTS x", "ADDSLOTS -1",
            "DELSLOTS 0 0", "ADDSLOTSRANGE 5 4", "ADDSLOTSRANGE 0 5", "ADDSLOTSRANGE 0 1 2", "DELSLOTSRANGE 1 0",
            "DELSLOTSRANGE 0 16384", "DELSLOTS 1 x", "SET-CONFIG-EPOCH 5", "SET-CONFIG-EPOCH -1", "SET-CONFIG-EPOCH x",
            "SETSLOT 6000 MIGRATING " + s.id(1), "SETSLOT 0 IMPORTING " + s.id(1)};
        for (String error : errors) {
            s.step(OTHER, ("CLUSTER " + error).split(" "));
        }
        s.step(OTHER, "CLUSTER", "DELSLOTS", "0");
        s.step(OTHER, "CLUSTER", "DELSLOTS", "0");
        s.step(OTHER, "CLUSTER", "INFO");
        s.step(OTHER, "CLUSTER", "SLOTS");
        s.step(OTHER, "CLUSTER", "COUNTKEYSINSLOT", "0");
        s.step(OTHER, "GET", keyInSlot(0));
        s.step(OTHER, "GET", keyInSlot(1));
        s.step(OTHER, "GET", keyInSlot(6000));
        s.step(OTHER, "PING");
        s.step(OTHER, "CLUSTER", "ADDSLOTS", "0");
        s.awaitAgreement();
        s.step(OTHER, "CLUSTER", "DELSLOTSRANGE", "1", "3", "10", "12");
        s.step(OTHER, "CLUSTER", "NODES");
        s.step(OTHER, "CLUSTER", "ADDSLOTSRANGE", "1", "3", "10", "12");
        s.awaitAgreement();
        s.step(OTHER, "SET", keyInSlot(2), "v");
        s.step(OTHER, "CLUSTER", "INFO");
        // the third master holds the highest epoch: it stays; the first one takes a new, higher one
        s.step(SOURCE, "CLUSTER", "BUMPEPOCH");
        s.step(OTHER, "CLUSTER", "BUMPEPOCH");
        s.step(OTHER, "CLUSTER", "BUMPEPOCH");
        s.info(OTHER, "cluster_current_epoch");
        s.info(OTHER, "cluster_my_epoch");
    }
}
