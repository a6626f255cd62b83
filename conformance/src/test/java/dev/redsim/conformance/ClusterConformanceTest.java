package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisClusterTarget;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.util.KeyHashSlot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A simulated 3-master cluster against a real one (redis-server 7.0 from PATH, created by redis-cli): the same
 * commands on the node serving the same slots give the same replies, with only node IDs, ports and timing fields
 * named instead ({@link ClusterReplies}), in RESP2 and RESP3: the topology replies, MOVED, CROSSSLOT (commands,
 * transactions, scripts), SELECT, READONLY/READWRITE/ASKING, INFO's cluster section, the keys by slot.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterConformanceTest {
    private RedisCluster simulated;
    private RedisClusterTarget real;

    @BeforeAll
    void start() {
        real = Targets.referenceCluster(3, 0);
        simulated = RedisSimulator.cluster().start();
    }

    @AfterAll
    void stop() {
        if (simulated != null) {
            simulated.close();
        }
        if (real != null) {
            real.close();
        }
    }

    @BeforeEach
    void flush() {
        for (RedisTarget node : real.nodes()) {
            try (RespClient client = new RespClient(node.host(), node.port())) {
                client.call("FLUSHALL");
            }
        }
        simulated.flushAll();
    }

    /** Runs the same commands on node {@code index} of each cluster and compares the normalised replies. */
    private void sameReplies(int index, int protocol, List<String[]> commands) {
        assertThat(replies(real.nodes().get(index).host(), real.nodes().get(index).port(), protocol, commands))
                .as("node %d, RESP%d", index, protocol)
                .isEqualTo(replies(simulated.host(), simulated.ports().get(index), protocol, commands));
    }

    private static List<String> replies(String host, int port, int protocol, List<String[]> commands) {
        try (RespClient client = new RespClient(host, port)) {
            ClusterReplies replies = new ClusterReplies(client);
            if (protocol == 3) {
                client.call("HELLO", "3");
            }
            List<String> out = new ArrayList<>();
            for (String[] command : commands) {
                out.add(String.join(" ", command) + " -> " + replies.call(client, command));
            }
            return out;
        }
    }

    private static List<String[]> commands(String... lines) {
        List<String[]> out = new ArrayList<>();
        for (String line : lines) {
            out.add(line.split(" "));
        }
        return out;
    }

    /** The first of k0, k1, ... whose slot is served by node {@code index} (the same on both: same split). */
    private static String keyOn(int index, int skip) {
        int[][] ranges = {{0, 5460}, {5461, 10922}, {10923, 16383}};
        int found = 0;
        for (int i = 0; ; i++) {
            String key = "k" + i;
            int slot = KeyHashSlot.of(key.getBytes(StandardCharsets.UTF_8));
            if (slot >= ranges[index][0] && slot <= ranges[index][1] && found++ == skip) {
                return key;
            }
        }
    }

    @Test
    void topologyRepliesAreRedisOnEveryNode() {
        for (int node = 0; node < 3; node++) {
            for (int protocol = 2; protocol <= 3; protocol++) {
                sameReplies(node, protocol, commands("CLUSTER SLOTS", "CLUSTER SHARDS", "CLUSTER NODES",
                        "CLUSTER INFO", "CLUSTER MYID", "CLUSTER LINKS"));
            }
        }
    }

    @Test
    void replicasAndErrorsOfTheClusterCommand() {
        for (int protocol = 2; protocol <= 3; protocol++) {
            sameReplies(0, protocol, commands("CLUSTER KEYSLOT somekey", "CLUSTER KEYSLOT {user1000}.following",
                    "CLUSTER KEYSLOT foo{}{bar}", "CLUSTER KEYSLOT foo{{bar}}zap", "CLUSTER KEYSLOT",
                    "CLUSTER COUNTKEYSINSLOT 99999", "CLUSTER COUNTKEYSINSLOT -1", "CLUSTER COUNTKEYSINSLOT x",
                    "CLUSTER GETKEYSINSLOT 1 -1", "CLUSTER GETKEYSINSLOT 99999 1", "CLUSTER GETKEYSINSLOT x 1",
                    "CLUSTER GETKEYSINSLOT 1 x", "CLUSTER REPLICAS nosuchnode", "CLUSTER SLAVES nosuchnode",
                    "CLUSTER NOSUCH"));
        }
        try (RespClient simulatedNode = new RespClient(simulated.host(), simulated.ports().get(0))) {
            // the node's own ID: the IDs differ, so each cluster is asked with its own
            assertThat(simulatedNode.call("CLUSTER", "REPLICAS", simulated.nodeId(1)).toString()).isEqualTo("*0\\r\\n");
        }
        RedisTarget realNode = real.nodes().get(0);
        try (RespClient client = new RespClient(realNode.host(), realNode.port())) {
            String id = client.call("CLUSTER", "MYID").text();
            assertThat(client.call("CLUSTER", "REPLICAS", id).toString()).isEqualTo("*0\\r\\n");
        }
    }

    @Test
    void keysBySlotAreCountedAndListed() {
        String a = keyOn(0, 0);
        String tagged1 = "{" + a + "}one";
        String tagged2 = "{" + a + "}two";
        int slot = KeyHashSlot.of(a.getBytes(StandardCharsets.UTF_8));
        sameReplies(0, 2, commands("SET " + a + " 1", "SET " + tagged1 + " 2", "RPUSH " + tagged2 + " x",
                "CLUSTER COUNTKEYSINSLOT " + slot, "CLUSTER GETKEYSINSLOT " + slot + " 2",
                "CLUSTER GETKEYSINSLOT " + slot + " 0", "DEL " + tagged1, "CLUSTER COUNTKEYSINSLOT " + slot,
                "CLUSTER COUNTKEYSINSLOT " + (slot + 1), "FLUSHALL", "CLUSTER COUNTKEYSINSLOT " + slot));
    }

    @Test
    void redirectionsAndCrossSlotRefusals() {
        String here = keyOn(0, 0);
        String here2 = keyOn(0, 1);
        String there = keyOn(1, 0);
        String farther = keyOn(2, 0);
        for (int protocol = 2; protocol <= 3; protocol++) {
            sameReplies(0, protocol, commands("CONFIG RESETSTAT",
                    "SET " + there + " 1", "GET " + farther, "SET " + here + " v", "GET " + here,
                    "MGET " + here + " " + here2, "MSET " + here + " 1 {" + here + "}x 2",
                    "MGET " + there + " " + farther, "MGET " + there + " {" + there + "}x",
                    "DEL " + here + " " + there, "RENAME " + here + " " + here2,
                    "SUNIONSTORE " + here + " {" + here + "}a {" + here + "}b",
                    "EVAL return×1 2 " + here + " " + here2, "EVAL return×1 1 " + there,
                    "EVAL return×1 0", "PING", "DBSIZE", "KEYS *",
                    "MULTI", "SET " + here + " 1", "SET " + here2 + " 2", "EXEC",
                    "MULTI", "SET " + here + " 1", "SET " + there + " 2", "EXEC", "GET " + here,
                    "MULTI", "SET " + here + " 1", "SET {" + here + "}x 2", "GET {" + here + "}x", "EXEC",
                    "EXEC", "INFO errorstats").stream()
                    .map(c -> { for (int i = 0; i < c.length; i++) { c[i] = c[i].replace('×', ' '); } return c; })
                    .toList());
            flush();
        }
    }

    @Test
    void selectAndTheClusterOnlyCommands() {
        for (int protocol = 2; protocol <= 3; protocol++) {
            sameReplies(1, protocol, commands("SELECT 1", "SELECT 0", "SELECT x", "SELECT -1", "SELECT 99",
                    "SWAPDB 0 1", "READONLY", "READWRITE", "ASKING", "INFO cluster", "CONFIG GET cluster-enabled"));
        }
    }
}
