package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys whose TTL has passed behave as absent everywhere, and OBJECT IDLETIME follows the simulator's clock.
 * Simulator-only (time control): real Redis would need real waiting.
 */
class ExpiredKeysTest {
    private RedisSimulator simulator;
    private RespClient client;

    @BeforeEach
    void start() {
        simulator = RedisSimulator.start();
        simulator.freezeTime();
        client = new RespClient(simulator.host(), simulator.port());
    }

    @AfterEach
    void stop() {
        client.close();
        simulator.close();
    }

    private String call(String... args) {
        return client.call(args).toString();
    }

    @Test
    void expiredKeysAreAbsentForEveryCommand() {
        call("SET", "k", "v", "PX", "100");
        call("SADD", "s", "a");
        call("PEXPIRE", "s", "100");
        call("SET", "live", "v");
        simulator.advanceTime(Duration.ofMillis(150));
        // Not swept yet, but already gone for every reader.
        assertThat(client.call("KEYS", "*").children()).hasSize(1);
        assertThat(client.call("SCAN", "0", "COUNT", "100").children().get(1).children()).hasSize(1);
        assertThat(client.call("RANDOMKEY").text()).isEqualTo("live");
        assertThat(client.call("EXISTS", "k", "s").asLong()).isZero();
        assertThat(client.call("TTL", "k").asLong()).isEqualTo(-2);
        assertThat(client.call("SCARD", "s").asLong()).isZero();
        assertThat(client.call("EXPIRE", "k", "100").asLong()).isZero();
        assertThat(client.call("PERSIST", "s").asLong()).isZero();
        assertThat(call("RENAME", "k", "x")).contains("no such key");
        assertThat(client.call("COPY", "s", "t").asLong()).isZero();
        assertThat(client.call("MOVE", "s", "1").asLong()).isZero();
        assertThat(client.call("DBSIZE").asLong()).isEqualTo(1);
    }

    @Test
    void ttlCountsDownWithTheClock() {
        call("SET", "k", "v", "EX", "100");
        simulator.advanceTime(Duration.ofSeconds(40));
        assertThat(client.call("TTL", "k").asLong()).isEqualTo(60);
        assertThat(client.call("PTTL", "k").asLong()).isEqualTo(60_000);
        call("RENAME", "k", "r");
        assertThat(client.call("TTL", "r").asLong()).isEqualTo(60);
        simulator.advanceTime(Duration.ofSeconds(60));
        assertThat(client.call("EXISTS", "r").asLong()).isZero();
    }

    @Test
    void idleTimeFollowsTheClockAndObjectDoesNotTouch() {
        call("SET", "k", "v");
        simulator.advanceTime(Duration.ofSeconds(30));
        assertThat(client.call("OBJECT", "IDLETIME", "k").asLong()).isEqualTo(30);
        assertThat(client.call("OBJECT", "IDLETIME", "k").asLong()).isEqualTo(30);
        call("EXISTS", "k");
        call("TYPE", "k");
        call("TTL", "k");
        assertThat(client.call("OBJECT", "IDLETIME", "k").asLong()).as("EXISTS, TYPE, TTL do not touch").isEqualTo(30);
        call("GET", "k");
        assertThat(client.call("OBJECT", "IDLETIME", "k").asLong()).isZero();
        simulator.advanceTime(Duration.ofSeconds(5));
        call("TOUCH", "k");
        assertThat(client.call("OBJECT", "IDLETIME", "k").asLong()).isZero();
    }
}
