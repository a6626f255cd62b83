package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INFO commandstats across CONFIG RESETSTAT, on a fresh simulator and a fresh redis-server each: a command counted
 * before the reset is gone from the section after it, and its calls, rejected and failed calls count from zero
 * again (the simulator's command spec keeps its counters, so the reset must zero those very counters). Also the
 * call clock under clock control: a key's idle time and expiry follow the time moved between two commands.
 */
class CommandStatsResetTest {

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void countersStartOverAfterResetstat(String name) {
        try (RedisTarget target = start(name); RespClient client = client(target)) {
            client.call("SET", "k", "v");
            client.call("GET", "k");
            client.call("GET", "k");
            client.call("LPUSH", "k", "x"); // WRONGTYPE: a failed call
            assertThat(stats(client)).containsEntry("get", "calls=2,rejected_calls=0,failed_calls=0")
                    .containsEntry("lpush", "calls=1,rejected_calls=0,failed_calls=1");

            client.call("CONFIG", "RESETSTAT");
            assertThat(stats(client)).doesNotContainKeys("get", "set", "lpush");

            client.call("GET", "k");
            client.call("GET"); // wrong arity: rejected
            client.call("LPUSH", "k", "x");
            assertThat(stats(client)).containsEntry("get", "calls=1,rejected_calls=1,failed_calls=0")
                    .containsEntry("lpush", "calls=1,rejected_calls=0,failed_calls=1")
                    .doesNotContainKey("set");
        }
    }

    /** The simulator only: Redis's clock cannot be moved. */
    @Test
    void theCallClockFollowsTimeMovedBetweenCommands() {
        try (SimulatorTarget simulator = new SimulatorTarget(); RespClient client = client(simulator)) {
            simulator.simulator().freezeTime();
            client.call("SET", "k", "v", "PX", "10000");
            client.call("SET", "idle", "v");
            simulator.simulator().advanceTime(Duration.ofSeconds(7));
            assertThat(client.call("OBJECT", "IDLETIME", "idle").asLong()).isEqualTo(7);
            client.call("GET", "idle"); // an access at the call's reading: idle again from now
            assertThat(client.call("OBJECT", "IDLETIME", "idle").asLong()).isZero();
            assertThat(client.call("EXISTS", "k").asLong()).isEqualTo(1);
            simulator.simulator().advanceTime(Duration.ofMillis(3000));
            assertThat(client.call("EXISTS", "k").asLong()).isZero(); // expired exactly at its time
        }
    }

    /** cmdstat_NAME rows without the timing figures, by command name. */
    private static Map<String, String> stats(RespClient client) {
        Map<String, String> stats = new LinkedHashMap<>();
        for (String row : client.call("INFO", "commandstats").text().split("\r?\n")) {
            if (row.startsWith("cmdstat_")) {
                int colon = row.indexOf(':');
                stats.put(row.substring("cmdstat_".length(), colon),
                        row.substring(colon + 1).replaceAll("usec=[^,]*,usec_per_call=[^,]*,", ""));
            }
        }
        return stats;
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }
}
