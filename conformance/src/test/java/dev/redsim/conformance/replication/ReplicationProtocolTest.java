package dev.redsim.conformance.replication;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replication protocol as a replica sees it, on a fresh simulator and a fresh redis-server each: offsets that
 * count every byte of the stream, WAIT counting the replicas that acknowledged (REPLCONF GETACK in the stream, the
 * count reached when the time is up), PSYNC continuing from the backlog (+CONTINUE with or without the replication
 * id) or falling back to a full synchronisation, and what INFO replication and ROLE say about the replicas.
 */
class ReplicationProtocolTest {

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void waitCountsTheReplicasThatAcknowledgedTheClientsWrites(String name) {
        try (RedisTarget target = start(name); RespClient client = client(target);
             ReplicaLinkClient first = replica(target, 7001); ReplicaLinkClient second = replica(target, 7002)) {
            client.call("CONFIG", "SET", "repl-ping-replica-period", "3600");
            assertThat(client.call("WAIT", "2", "0").asLong()).isEqualTo(2); // no write yet: offset 0 is acked
            client.call("SET", "k", "v");
            client.send(bytes("WAIT", "2", "0"));
            assertThat(readUntil(first, "REPLCONF")).isEqualTo(List.of("REPLCONF", "GETACK", "*"));
            assertThat(readUntil(second, "REPLCONF")).isEqualTo(List.of("REPLCONF", "GETACK", "*"));
            first.ack(first.processedOffset());
            client.setTimeoutMillis(200);
            assertThat(client.receivesNothing()).isTrue(); // one of two: still waiting
            client.setTimeoutMillis(10_000);
            second.ack(second.processedOffset());
            assertThat(client.read().asLong()).isEqualTo(2);

            client.call("SET", "k", "w"); // acknowledged by no one: WAIT answers what it reached when time is up
            assertThat(client.call("WAIT", "1", "50").asLong()).isZero();
            readUntil(first, "SET");
            first.ack(first.processedOffset());
            assertThat(client.call("WAIT", "2", "50").asLong()).isEqualTo(1);
            // A client's offset is the stream's after its last command, here the WAIT before, whose GETACK went
            // out after it: a replica that acknowledged that GETACK satisfies the next WAIT.
            readUntil(first, "REPLCONF");
            first.ack(first.processedOffset());
            assertThat(client.call("WAIT", "1", "0").asLong()).isEqualTo(1);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void psyncContinuesFromTheBacklogOrSyncsInFull(String name) {
        try (RedisTarget target = start(name); RespClient client = client(target)) {
            client.call("CONFIG", "SET", "repl-ping-replica-period", "3600");
            String replid;
            long offset;
            try (ReplicaLinkClient first = replica(target, 7001)) {
                replid = first.fullResyncLine().split(" ")[1];
                client.call("SET", "a", "1");
                assertThat(readUntil(first, "SET")).isEqualTo(List.of("SET", "a", "1"));
                offset = first.processedOffset();
            }
            client.call("SET", "b", "2");
            client.call("INCRBYFLOAT", "f", "1.5");
            try (ReplicaLinkClient again = new ReplicaLinkClient(target.host(), target.port())) {
                assertThat(again.psync(replid, offset + 1, "psync2")).isEqualTo("+CONTINUE " + replid);
                again.streamFrom(offset);
                assertThat(again.readCommand()).isEqualTo(List.of("SET", "b", "2"));
                assertThat(again.readCommand()).isEqualTo(List.of("SET", "f", "1.5", "KEEPTTL"));
                assertThat(again.processedOffset()).isEqualTo(masterOffset(client));
            }
            try (ReplicaLinkClient old = new ReplicaLinkClient(target.host(), target.port())) {
                assertThat(old.psync(replid, offset + 1)).isEqualTo("+CONTINUE"); // no psync2: no id
                assertThat(old.readCommand()).isEqualTo(List.of("SET", "b", "2"));
            }
            long end = masterOffset(client);
            try (ReplicaLinkClient atEnd = new ReplicaLinkClient(target.host(), target.port())) {
                assertThat(atEnd.psync(replid, end + 1, "psync2")).isEqualTo("+CONTINUE " + replid);
            }
            try (ReplicaLinkClient ahead = new ReplicaLinkClient(target.host(), target.port())) {
                assertThat(ahead.psync(replid, end + 2)).isEqualTo("+FULLRESYNC " + replid + " " + end);
                ahead.readRdb();
            }
            try (ReplicaLinkClient stranger = new ReplicaLinkClient(target.host(), target.port())) {
                assertThat(stranger.psync("0123456789012345678901234567890123456789", 1))
                        .isEqualTo("+FULLRESYNC " + replid + " " + end);
                stranger.readRdb();
            }
            try (ReplicaLinkClient old = new ReplicaLinkClient(target.host(), target.port())) {
                old.oldSync(); // SYNC: the payload without a +FULLRESYNC line
                assertThat(new String(old.rdb(), 0, 9, java.nio.charset.StandardCharsets.US_ASCII))
                        .isEqualTo("REDIS0010");
            }
            Map<String, String> stats = info(client, "stats");
            assertThat(stats.get("sync_full")).isEqualTo("4");
            assertThat(stats.get("sync_partial_ok")).isEqualTo("3");
            assertThat(stats.get("sync_partial_err")).isEqualTo("2");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void infoReplicationAndRoleDescribeTheReplicas(String name) {
        try (RedisTarget target = start(name); RespClient client = client(target)) {
            client.call("CONFIG", "SET", "repl-ping-replica-period", "3600");
            Map<String, String> before = info(client, "replication");
            assertThat(before.get("connected_slaves")).isEqualTo("0");
            assertThat(before.get("repl_backlog_active")).isEqualTo("0");
            assertThat(before.get("master_repl_offset")).isEqualTo("0");
            try (ReplicaLinkClient replica = replica(target, 7003)) {
                String replid = replica.fullResyncLine().split(" ")[1];
                client.call("SET", "k", "v");
                readUntil(replica, "SET");
                replica.ack(replica.processedOffset());
                long offset = replica.processedOffset();
                Map<String, String> after = awaitAck(client, offset);
                assertThat(after.get("role")).isEqualTo("master");
                assertThat(after.get("connected_slaves")).isEqualTo("1");
                assertThat(after.get("slave0")).isEqualTo("ip=127.0.0.1,port=7003,state=online,offset=" + offset
                        + ",lag=0");
                assertThat(after.get("master_replid")).isEqualTo(replid).isNotEqualTo(before.get("master_replid"));
                assertThat(after.get("master_replid2")).isEqualTo("0".repeat(40));
                assertThat(after.get("master_repl_offset")).isEqualTo(Long.toString(offset));
                assertThat(after.get("second_repl_offset")).isEqualTo("-1");
                assertThat(after.get("repl_backlog_active")).isEqualTo("1");
                assertThat(after.get("repl_backlog_size")).isEqualTo("1048576");
                assertThat(after.get("repl_backlog_first_byte_offset")).isEqualTo("1");
                assertThat(after.get("repl_backlog_histlen")).isEqualTo(Long.toString(offset));
                assertThat(client.call("ROLE").toString()).isEqualTo(client.call("ROLE").toString())
                        .contains("master").contains("7003").contains(Long.toString(offset));
                assertThat(client.call("CLIENT", "LIST", "TYPE", "replica").text()).contains("flags=S");
            }
        }
    }

    private static Map<String, String> awaitAck(RespClient client, long offset) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            Map<String, String> fields = info(client, "replication");
            String slave = fields.getOrDefault("slave0", "");
            if (slave.contains("offset=" + offset + ",") || System.nanoTime() > deadline) {
                return fields;
            }
            Thread.yield();
        }
    }

    private static long masterOffset(RespClient client) {
        return Long.parseLong(info(client, "replication").get("master_repl_offset"));
    }

    private static List<String> readUntil(ReplicaLinkClient replica, String commandName) {
        while (true) {
            List<String> command = replica.readCommand();
            if (command.get(0).equalsIgnoreCase(commandName)) {
                return command;
            }
        }
    }

    private static Map<String, String> info(RespClient client, String section) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : client.call("INFO", section).text().split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    private static ReplicaLinkClient replica(RedisTarget target, int port) {
        return new ReplicaLinkClient(target.host(), target.port()).fullSync(port);
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }

    private static byte[][] bytes(String... args) {
        byte[][] result = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            result[i] = args[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        return result;
    }
}
