package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.engine.Config;
import dev.redsim.simulator.engine.LatencyMonitor;
import dev.redsim.simulator.engine.TimeSource;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/** LATENCY GRAPH's drawing, on the simulator's clock, as Redis's sparkline draws it. */
class LatencyGraphTest {
    private static final String RULE = "-".repeat(80) + "\n";

    private final Config config = new Config();
    private final TimeSource time = new TimeSource(Clock.fixed(Instant.ofEpochSecond(1_700_000_000), ZoneOffset.UTC));
    private final LatencyMonitor monitor = new LatencyMonitor(config, time);

    @Test
    void oneSampleIsALowMarkWithItsAgeBelow() {
        config.set("latency-monitor-threshold", "1");
        time.freeze();
        monitor.addSampleIfNeeded("command", 30);
        time.advance(Duration.ofSeconds(3));
        // what redis-server 7.0.15 answered for one 30 ms sample taken 3 seconds earlier
        assertThat(render("command")).isEqualTo("command - high 30 ms, low 30 ms (all time high 30 ms)\n" + RULE
                + " \n \n \n_\n \n3\ns\n");
    }

    @Test
    void samplesRiseFromLowToHighWithFilledColumns() {
        config.set("latency-monitor-threshold", "1");
        time.freeze();
        monitor.addSampleIfNeeded("command", 10);
        time.advance(Duration.ofSeconds(1));
        monitor.addSampleIfNeeded("command", 20);
        monitor.addSampleIfNeeded("command", 15); // the same second keeps its worst sample
        time.advance(Duration.ofSeconds(1));
        monitor.addSampleIfNeeded("command", 40);
        assertThat(monitor.event("command").samples()).hasSize(3);
        assertThat(render("command")).isEqualTo("command - high 40 ms, low 10 ms (all time high 40 ms)\n" + RULE
                + "  #\n  |\n o|\n_||\n   \n210\nsss\n");
    }

    @Test
    void samplesUnderTheThresholdOrWithoutOneAreNotKept() {
        monitor.addSampleIfNeeded("command", 500);
        assertThat(monitor.event("command")).isNull();
        config.set("latency-monitor-threshold", "100");
        monitor.addSampleIfNeeded("command", 99);
        assertThat(monitor.event("command")).isNull();
        monitor.addSampleIfNeeded("command", 100);
        assertThat(monitor.event("command").latest()[1]).isEqualTo(100);
    }

    private String render(String event) {
        return LatencyGraph.render(event, monitor.event(event), time.millis() / 1000);
    }
}
