package dev.redsim.conformance;

import dev.redsim.conformance.resp.BlockedClientsProbe;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streams on the simulator's clock (simulator-only: time control): XADD * takes its IDs from the clock, idle times
 * are exact while time stands still, and blocked XREAD/XREADGROUP time out only when the clock passes their
 * timeout, however long real time runs.
 */
class StreamClockTest {
    private RedisSimulator simulator;
    private RespClient client;
    private RespClient waiter;

    @BeforeEach
    void start() {
        simulator = RedisSimulator.start();
        simulator.freezeTime();
        client = new RespClient(simulator.host(), simulator.port());
        waiter = new RespClient(simulator.host(), simulator.port());
    }

    @AfterEach
    void stop() {
        client.close();
        waiter.close();
        simulator.close();
    }

    private long now() {
        List<RespValue> time = client.call("TIME").children();
        return Long.parseLong(time.get(0).text()) * 1000 + Long.parseLong(time.get(1).text()) / 1000;
    }

    /** The periodic timeout check runs on real time but reads the frozen clock: run it once more, deliberately. */
    private void checkTimeouts() {
        simulator.onEngine(() -> {
            simulator.engine().checkBlockedTimeouts();
            return null;
        });
    }

    @Test
    void xaddStarTakesItsIdFromTheClock() {
        long now = now();
        assertThat(client.call("XADD", "s", "*", "a", "1").text()).isEqualTo(now + "-0");
        assertThat(client.call("XADD", "s", "*", "a", "2").text()).isEqualTo(now + "-1");
        simulator.advanceTime(Duration.ofMillis(5));
        assertThat(client.call("XADD", "s", "*", "a", "3").text()).isEqualTo((now + 5) + "-0");
        assertThat(client.call("XADD", "s", (now + 5) + "-*", "a", "4").text()).isEqualTo((now + 5) + "-1");
        assertThat(client.call("XADD", "s", (now + 100) + "-*", "a", "5").text()).isEqualTo((now + 100) + "-0");
        assertThat(client.call("XADD", "s", "*", "a", "6").text()).isEqualTo((now + 100) + "-1");
    }

    @Test
    void idleTimesAreExactWhileTimeStandsStill() {
        client.call("XADD", "s", "1", "a", "1");
        client.call("XADD", "s", "2", "a", "2");
        client.call("XGROUP", "CREATE", "s", "g", "0");
        client.call("XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "s", ">");
        simulator.advanceTime(Duration.ofMillis(1234));
        client.call("XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">");
        assertThat(client.call("XPENDING", "s", "g", "-", "+", "10").toString()).isEqualTo(
                "*2\\r\\n*4\\r\\n$3\\r\\n1-0\\r\\n$5\\r\\nalice\\r\\n:1234\\r\\n:1\\r\\n"
                        + "*4\\r\\n$3\\r\\n2-0\\r\\n$3\\r\\nbob\\r\\n:0\\r\\n:1\\r\\n");
        assertThat(client.call("XPENDING", "s", "g", "IDLE", "1234", "-", "+", "10").children()).hasSize(1);
        assertThat(client.call("XPENDING", "s", "g", "IDLE", "1235", "-", "+", "10").children()).isEmpty();
        RespValue consumers = client.call("XINFO", "CONSUMERS", "s", "g");
        assertThat(consumers.children().get(0).children().get(5).asLong()).isEqualTo(1234);
        assertThat(consumers.children().get(1).children().get(5).asLong()).isZero();
        // min-idle-time: alice's entry has been idle exactly 1234 ms
        assertThat(client.call("XAUTOCLAIM", "s", "g", "carol", "1235", "0", "JUSTID").children().get(1).children())
                .isEmpty();
        assertThat(client.call("XCLAIM", "s", "g", "carol", "1234", "1", "JUSTID").children()).hasSize(1);
        assertThat(client.call("XCLAIM", "s", "g", "dave", "0", "2", "IDLE", "500", "JUSTID").children()).hasSize(1);
        assertThat(client.call("XPENDING", "s", "g", "-", "+", "10", "dave").children().get(0).children().get(2)
                .asLong()).isEqualTo(500);
        long time = now() - 100;
        client.call("XCLAIM", "s", "g", "dave", "0", "1", "TIME", Long.toString(time), "JUSTID");
        assertThat(client.call("XPENDING", "s", "g", "-", "+", "1").children().get(0).children().get(2).asLong())
                .isEqualTo(100);
    }

    @Test
    void blockedXreadTimesOutWhenTheClockPassesItsTimeout() {
        waiter.send("XREAD".getBytes(), "BLOCK".getBytes(), "5000".getBytes(), "STREAMS".getBytes(), "s".getBytes(),
                "$".getBytes());
        BlockedClientsProbe.require(client, 1);
        simulator.advanceTime(Duration.ofMillis(4999));
        checkTimeouts();
        BlockedClientsProbe.require(client, 1);
        simulator.advanceTime(Duration.ofMillis(1));
        assertThat(waiter.read().toString()).isEqualTo("*-1\\r\\n");
        BlockedClientsProbe.require(client, 0);
    }

    @Test
    void blockedXreadgroupTimesOutOnTheClockAndIsServedBeforeIt() {
        client.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
        waiter.send("XREADGROUP".getBytes(), "GROUP".getBytes(), "g".getBytes(), "alice".getBytes(),
                "BLOCK".getBytes(), "100".getBytes(), "STREAMS".getBytes(), "s".getBytes(), ">".getBytes());
        BlockedClientsProbe.require(client, 1);
        simulator.advanceTime(Duration.ofMillis(99));
        checkTimeouts();
        BlockedClientsProbe.require(client, 1);
        client.call("XADD", "s", "1", "a", "1");
        assertThat(waiter.read().toString()).contains("1-0");
        simulator.advanceTime(Duration.ofMillis(10));
        checkTimeouts();
        assertThat(client.call("PING").toString()).isEqualTo("+PONG\\r\\n");
        waiter.send("XREADGROUP".getBytes(), "GROUP".getBytes(), "g".getBytes(), "alice".getBytes(),
                "BLOCK".getBytes(), "100".getBytes(), "STREAMS".getBytes(), "s".getBytes(), ">".getBytes());
        BlockedClientsProbe.require(client, 1);
        simulator.advanceTime(Duration.ofMillis(100));
        assertThat(waiter.read().toString()).isEqualTo("*-1\\r\\n");
        assertThat(client.call("XPENDING", "s", "g").children().get(0).asLong()).isEqualTo(1);
    }

    @Test
    void blockedReadersWaitingForeverOutliveAnyClockMove() {
        waiter.send("XREAD".getBytes(), "BLOCK".getBytes(), "0".getBytes(), "STREAMS".getBytes(), "s".getBytes(),
                "$".getBytes());
        BlockedClientsProbe.require(client, 1);
        simulator.advanceTime(Duration.ofDays(365));
        checkTimeouts();
        BlockedClientsProbe.require(client, 1);
        client.call("XADD", "s", "7", "a", "1");
        assertThat(waiter.read().toString()).contains("7-0");
    }
}
