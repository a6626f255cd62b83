package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimulatorLifecycleTest {
    @Test
    void manySimulatorsRunSideBySideWithSeparateData() throws IOException {
        List<RedisSimulator> simulators = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                simulators.add(RedisSimulator.start());
            }
            for (int i = 0; i < simulators.size(); i++) {
                try (TinyClient client = new TinyClient(simulators.get(i))) {
                    client.call("SET who " + i);
                }
            }
            for (int i = 0; i < simulators.size(); i++) {
                try (TinyClient client = new TinyClient(simulators.get(i))) {
                    assertThat(client.call("GET who")).isEqualTo(Integer.toString(i));
                }
            }
        } finally {
            simulators.forEach(RedisSimulator::close);
        }
    }

    @Test
    void startingOnAPortInUseNamesItAndLeavesNoThreadBehind() {
        try (RedisSimulator first = RedisSimulator.start()) {
            long engineThreads = engineThreads();
            assertThatThrownBy(() -> RedisSimulator.builder().port(first.port()).start())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot listen on 127.0.0.1:" + first.port() + ": Address already in use");
            assertThat(engineThreads()).isEqualTo(engineThreads);
        }
    }

    private static long engineThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("redsim-engine") && t.isAlive()).count();
    }

    @Test
    void uriCarriesThePassword() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.builder().password("s3cret p@ss:w").start();
                TinyClient client = new TinyClient(simulator)) {
            java.net.URI uri = simulator.uri();
            assertThat(uri.toString()).isEqualTo("redis://:s3cret%20p%40ss%3Aw@127.0.0.1:" + simulator.port());
            String password = uri.getUserInfo().substring(1);
            assertThat(client.call("AUTH \"" + password + "\"")).isEqualTo("+OK");
        }
        try (RedisSimulator open = RedisSimulator.start()) {
            assertThat(open.uri().toString()).isEqualTo("redis://127.0.0.1:" + open.port());
        }
    }

    @Test
    void configurationValuesAreValidatedAtStartWithRedisErrors() throws IOException {
        assertThatThrownBy(() -> RedisSimulator.builder().config("maxmemory", "lots").start())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid value 'lots' for Redis configuration parameter maxmemory: "
                        + "argument must be a memory value");
        assertThatThrownBy(() -> RedisSimulator.builder().config("appendonly", "maybe").start())
                .hasMessageEndingWith("argument must be 'yes' or 'no'");
        try (RedisSimulator simulator = RedisSimulator.builder().config("maxmemory", "100mb").start();
                TinyClient client = new TinyClient(simulator)) {
            client.send("CONFIG GET maxmemory");
            assertThat(client.readLine()).isEqualTo("*2");
            assertThat(client.readLine()).isEqualTo("maxmemory");
            assertThat(client.readLine()).isEqualTo("104857600");
        }
    }

    /**
     * A simulator closed right after its start (a test that needed none of it) stops without a word: its engine's
     * first task, which schedules the timers, may run while the loop already stops, and must not print a rejection.
     */
    @Test
    void aSimulatorClosedAtOnceStopsQuietly() {
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(printed, true));
        try {
            for (int i = 0; i < 200; i++) {
                RedisSimulator.start().close();
            }
        } finally {
            System.setErr(err);
        }
        assertThat(printed.toString()).isEmpty();
    }

    @Test
    void closeFreesThePort() throws IOException {
        RedisSimulator simulator = RedisSimulator.start();
        int port = simulator.port();
        simulator.close();
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
        try (RedisSimulator again = RedisSimulator.builder().port(port).start();
             TinyClient client = new TinyClient(again)) {
            assertThat(client.call("PING")).isEqualTo("+PONG");
        }
    }

    @Test
    void passwordFromTheBuilderIsRequired() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.builder().password("secret").start();
             TinyClient client = new TinyClient(simulator)) {
            assertThat(client.call("GET k")).isEqualTo("-NOAUTH Authentication required.");
            assertThat(client.call("AUTH wrong")).startsWith("-WRONGPASS");
            assertThat(client.call("AUTH secret")).isEqualTo("+OK");
            assertThat(client.call("GET k")).isEqualTo("$-1");
        }
    }

    @Test
    void configurationParametersFromTheBuilder() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.builder().config("enable-debug-command", "yes")
                .config("hash-max-listpack-entries", "1").start();
             TinyClient client = new TinyClient(simulator)) {
            assertThat(client.call("DEBUG SLEEP 0")).isEqualTo("+OK");
            client.call("HSET h a 1 b 2");
            assertThat(client.call("OBJECT ENCODING h")).isEqualTo("hashtable");
        }
        assertThatThrownBy(() -> RedisSimulator.builder().config("no-such-parameter", "1").start())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void databasesFromTheBuilder() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.builder().databases(2).start();
             TinyClient client = new TinyClient(simulator)) {
            assertThat(client.call("SELECT 1")).isEqualTo("+OK");
            assertThat(client.call("SELECT 2")).isEqualTo("-ERR DB index is out of range");
        }
    }

    @Test
    void timeControlExpiresKeysWithoutSleeping() throws IOException {
        Clock fixed = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);
        try (RedisSimulator simulator = RedisSimulator.builder().clock(fixed).start();
             TinyClient client = new TinyClient(simulator)) {
            assertThat(simulator.currentTimeMillis()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z").toEpochMilli());
            client.call("SET k v PX 1500");
            simulator.advanceTime(java.time.Duration.ofMillis(1499));
            assertThat(client.call("GET k")).isEqualTo("v");
            simulator.advanceTime(java.time.Duration.ofMillis(1));
            assertThat(client.call("GET k")).isEqualTo("$-1");
        }
    }

    @Test
    void advancingTimeExpiresKeysNobodyTouches() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.start();
             TinyClient client = new TinyClient(simulator)) {
            simulator.freezeTime();
            for (int i = 0; i < 100; i++) {
                client.call("SET k" + i + " v PX " + (1000 + i));
            }
            client.call("SET forever v");
            simulator.advanceTime(java.time.Duration.ofMillis(1050));
            assertThat(client.call("DBSIZE")).isEqualTo(":50");
            simulator.advanceTime(java.time.Duration.ofMillis(50));
            assertThat(client.call("DBSIZE")).isEqualTo(":1");
        }
    }

    @Test
    void frozenTimeStandsStill() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.start();
             TinyClient client = new TinyClient(simulator)) {
            simulator.freezeTime();
            long frozen = simulator.currentTimeMillis();
            client.call("SET k v PX 1");
            // however long the machine takes, no simulated time passes while frozen
            for (int i = 0; i < 100; i++) {
                assertThat(client.call("GET k")).isEqualTo("v");
            }
            assertThat(simulator.currentTimeMillis()).isEqualTo(frozen);
            simulator.advanceTime(java.time.Duration.ofMillis(1));
            assertThat(client.call("GET k")).isEqualTo("$-1");
            simulator.unfreezeTime();
            assertThat(simulator.currentTimeMillis()).isGreaterThanOrEqualTo(frozen + 1);
        }
    }
}
