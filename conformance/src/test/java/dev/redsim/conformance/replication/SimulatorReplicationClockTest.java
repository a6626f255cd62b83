package dev.redsim.conformance.replication;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.SimulatorTarget;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What replication does as the simulator's clock moves (simulator only: redis-server's clock cannot be moved): keys
 * that expire reach the replicas as DEL, the keepalive PING comes every repl-ping-replica-period seconds, WAIT's
 * timeout passes with the clock; and what a backlog too small for the gap makes of a PSYNC (a full
 * synchronisation).
 */
class SimulatorReplicationClockTest {

    @Test
    void expiredKeysReachTheReplicaAsDel() {
        try (SimulatorTarget simulator = new SimulatorTarget(); RespClient client = client(simulator);
             ReplicaLinkClient replica = new ReplicaLinkClient(simulator.host(), simulator.port()).fullSync(7010)) {
            simulator.simulator().freezeTime();
            client.call("CONFIG", "SET", "repl-ping-replica-period", "10");
            client.call("SET", "short", "1", "PX", "500");
            client.call("SELECT", "4");
            client.call("SET", "other-db", "1", "EX", "1");
            assertThat(replica.readCommand()).isEqualTo(List.of("SELECT", "0"));
            assertThat(replica.readCommand().subList(0, 4)).isEqualTo(List.of("SET", "short", "1", "PXAT"));
            assertThat(replica.readCommand()).isEqualTo(List.of("SELECT", "4"));
            assertThat(replica.readCommand().subList(0, 4)).isEqualTo(List.of("SET", "other-db", "1", "PXAT"));

            simulator.simulator().advanceTime(Duration.ofSeconds(2)); // both expire, swept by the clock's move
            assertThat(List.of(replica.readCommand(), replica.readCommand(), replica.readCommand(),
                    replica.readCommand())).containsExactly(List.of("SELECT", "0"), List.of("DEL", "short"),
                    List.of("SELECT", "4"), List.of("DEL", "other-db"));
        }
    }

    @Test
    void pingEveryPeriodOfTheSimulatorsClock() {
        try (SimulatorTarget simulator = new SimulatorTarget(); RespClient client = client(simulator);
             ReplicaLinkClient replica = new ReplicaLinkClient(simulator.host(), simulator.port()).fullSync(7011)) {
            simulator.simulator().freezeTime();
            client.call("CONFIG", "SET", "repl-ping-replica-period", "10");
            client.call("SET", "k", "v"); // the cron has seen the replica by the time this reaches it
            replica.readCommand();
            replica.readCommand();
            simulator.simulator().advanceTime(Duration.ofSeconds(10));
            assertThat(replica.readCommand()).isEqualTo(List.of("ping"));
            replica.setTimeoutMillis(300);
            assertThat(replica.receivesNothing()).isTrue(); // the clock stands: no second PING
        }
    }

    @Test
    void waitTimesOutOnTheSimulatorsClock() {
        try (SimulatorTarget simulator = new SimulatorTarget(); RespClient client = client(simulator);
             ReplicaLinkClient replica = new ReplicaLinkClient(simulator.host(), simulator.port()).fullSync(7012)) {
            simulator.simulator().freezeTime();
            client.call("SET", "k", "v");
            client.send("WAIT".getBytes(), "1".getBytes(), "60000".getBytes());
            client.setTimeoutMillis(300);
            assertThat(client.receivesNothing()).isTrue();
            client.setTimeoutMillis(10_000);
            simulator.simulator().advanceTime(Duration.ofSeconds(61));
            assertThat(client.read().asLong()).isZero();
        }
    }

    @Test
    void aGapLargerThanTheBacklogNeedsAFullSync() {
        try (SimulatorTarget simulator = new SimulatorTarget(); RespClient client = client(simulator)) {
            client.call("CONFIG", "SET", "repl-backlog-size", "16384"); // Redis's smallest
            String replid;
            long offset;
            try (ReplicaLinkClient first = new ReplicaLinkClient(simulator.host(), simulator.port()).fullSync(7013)) {
                replid = first.fullResyncLine().split(" ")[1];
                offset = first.processedOffset();
            }
            for (int i = 0; i < 100; i++) {
                client.call("SET", "k" + i, "x".repeat(200)); // about 23 KB of stream
            }
            try (ReplicaLinkClient late = new ReplicaLinkClient(simulator.host(), simulator.port())) {
                assertThat(late.psync(replid, offset + 1, "psync2")).startsWith("+FULLRESYNC " + replid + " ");
            }
            String info = client.call("INFO", "replication").text();
            assertThat(info).contains("repl_backlog_histlen:16384\r\n");
        }
    }

    private static RespClient client(SimulatorTarget target) {
        return new RespClient(target.host(), target.port());
    }
}
