package dev.redsim.conformance;

import dev.redsim.conformance.resp.BlockedClientsProbe;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocking commands time out on the simulator's clock: with time frozen a blocked client waits however long real
 * time runs, and advancing the clock past its timeout wakes it at once with the timeout reply. Simulator-only.
 */
class BlockingTimeoutTest {
    private RedisSimulator simulator;
    private RespClient waiter;
    private RespClient other;

    @BeforeEach
    void start() {
        simulator = RedisSimulator.start();
        simulator.freezeTime();
        waiter = new RespClient(simulator.host(), simulator.port());
        other = new RespClient(simulator.host(), simulator.port());
    }

    @AfterEach
    void stop() {
        waiter.close();
        other.close();
        simulator.close();
    }

    private void awaitBlocked(int count) {
        BlockedClientsProbe.require(other, count);
    }

    @Test
    void blpopTimesOutWhenTheClockPassesItsTimeout() throws InterruptedException {
        waiter.send("BLPOP".getBytes(), "q".getBytes(), "5".getBytes());
        awaitBlocked(1);
        simulator.advanceTime(Duration.ofMillis(4999));
        // the periodic timeout check runs on real time but reads the frozen clock: run it once more, deliberately
        simulator.onEngine(() -> {
            simulator.engine().checkBlockedTimeouts();
            return null;
        });
        awaitBlocked(1);
        simulator.advanceTime(Duration.ofMillis(1));
        assertThat(waiter.read().toString()).isEqualTo("*-1\\r\\n");
        awaitBlocked(0);
    }

    @Test
    void everyBlockingListCommandTimesOutWithANullArray() throws InterruptedException {
        String[][] commands = {
                {"BRPOP", "a", "b", "1.5"},
                {"BLMOVE", "a", "b", "LEFT", "RIGHT", "1.5"},
                {"BRPOPLPUSH", "a", "b", "1.5"},
                {"BLMPOP", "1.5", "2", "a", "b", "LEFT", "COUNT", "2"},
        };
        for (String[] command : commands) {
            byte[][] args = new byte[command.length][];
            for (int i = 0; i < args.length; i++) {
                args[i] = command[i].getBytes();
            }
            waiter.send(args);
            awaitBlocked(1);
            simulator.advanceTime(Duration.ofMillis(1500));
            assertThat(waiter.read().toString()).as(command[0]).isEqualTo("*-1\\r\\n");
        }
    }

    @Test
    void aPushBeforeTheTimeoutServesAndTheLaterTimeoutChangesNothing() throws InterruptedException {
        waiter.send("BLPOP".getBytes(), "q".getBytes(), "2".getBytes());
        awaitBlocked(1);
        simulator.advanceTime(Duration.ofSeconds(1));
        assertThat(other.call("RPUSH", "q", "a").asLong()).isEqualTo(1);
        assertThat(waiter.read().children()).hasSize(2);
        simulator.advanceTime(Duration.ofSeconds(5));
        assertThat(waiter.call("PING").text()).isEqualTo("PONG");
    }

    @Test
    void zeroWaitsForeverAndWaitersTimeOutInDeadlineOrder() throws InterruptedException {
        RespClient third = new RespClient(simulator.host(), simulator.port());
        try {
            waiter.send("BLPOP".getBytes(), "q".getBytes(), "0".getBytes());
            awaitBlocked(1);
            third.send("BLPOP".getBytes(), "q".getBytes(), "10".getBytes());
            awaitBlocked(2);
            assertThat(other.call("INFO", "clients").text()).contains("clients_in_timeout_table:1\r\n");
            simulator.advanceTime(Duration.ofDays(3650));
            assertThat(third.read().toString()).isEqualTo("*-1\\r\\n");
            awaitBlocked(1);
            other.call("RPUSH", "q", "x");
            assertThat(waiter.read().children().get(1).text()).isEqualTo("x");
        } finally {
            third.close();
        }
    }

    @Test
    void commandsSentWhileBlockedRunAfterTheTimeout() throws InterruptedException {
        waiter.send("BLPOP".getBytes(), "q".getBytes(), "1".getBytes());
        waiter.send("SET".getBytes(), "k".getBytes(), "v".getBytes());
        awaitBlocked(1);
        assertThat(other.call("EXISTS", "k").asLong()).isZero();
        simulator.advanceTime(Duration.ofSeconds(1));
        assertThat(waiter.read().toString()).isEqualTo("*-1\\r\\n");
        assertThat(waiter.read().text()).isEqualTo("OK");
        assertThat(other.call("GET", "k").text()).isEqualTo("v");
    }
}
