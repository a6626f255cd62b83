package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Simulator only: LATENCY stamps its samples with the simulator's clock (a frozen clock keeps one sample per second,
 * the worst; LATENCY GRAPH counts ages on the clock the test moves), while the latency itself is the real time the
 * command took. The slow command is a Lua loop that runs for well over the 20 ms threshold.
 */
class LatencyClockTest {
    private static final String SLOW = "local i = 0 while i < 6000000 do i = i + 1 end return i";

    @Test
    void samplesAreStampedWithTheSimulatorsClock() {
        try (SimulatorTarget target = new SimulatorTarget();
             RespClient client = new RespClient(target.host(), target.port())) {
            RedisSimulator simulator = target.simulator();
            simulator.freezeTime();
            simulator.advanceTime(Duration.ofDays(3650)); // far from the host's time
            long seconds = simulator.currentTimeMillis() / 1000;
            client.call("CONFIG", "SET", "latency-monitor-threshold", "20");
            client.call("EVAL", SLOW, "0");
            client.call("EVAL", SLOW, "0"); // the same second: merged into one sample, the worst
            RespValue latest = client.call("LATENCY", "LATEST").children().get(0);
            assertThat(latest.children().get(0).text()).isEqualTo("command");
            assertThat(latest.children().get(1).asLong()).isEqualTo(seconds);
            assertThat(latest.children().get(2).asLong()).isGreaterThanOrEqualTo(20);
            assertThat(client.call("LATENCY", "HISTORY", "command").children()).hasSize(1);

            simulator.advanceTime(Duration.ofSeconds(5));
            client.call("EVAL", SLOW, "0");
            assertThat(client.call("LATENCY", "HISTORY", "command").children()).hasSize(2);
            simulator.advanceTime(Duration.ofSeconds(2));
            String graph = client.call("LATENCY", "GRAPH", "command").text();
            String[] lines = graph.split("\n");
            // under the four rows of the sparkline and a blank row, the ages: 7 and 2 seconds
            assertThat(lines[lines.length - 2]).isEqualTo("72");
            assertThat(lines[lines.length - 1]).isEqualTo("ss");
            // (LATENCY's own calls may be samples too: a cold JVM can take milliseconds over them)
            assertThat(client.call("LATENCY", "DOCTOR").text()).startsWith("Dave, I have observed latency spikes")
                    .contains("1. command: ");
        }
    }
}
