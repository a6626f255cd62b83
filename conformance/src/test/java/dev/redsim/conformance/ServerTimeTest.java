package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Simulator-only: the server commands that tell time (TIME, LASTSAVE, INFO uptime and server time, CLIENT LIST
 * age) read the simulator's clock, so a test that moves the clock sees them move.
 */
class ServerTimeTest {
    private static final Instant START = Instant.parse("2030-01-02T03:04:05.678901Z");

    @Test
    void timeCommandsFollowTheSimulatorClock() {
        try (RedisSimulator redis = RedisSimulator.builder().clock(Clock.fixed(START, ZoneOffset.UTC)).start();
             RespClient c = new RespClient(redis.host(), redis.port())) {
            var time = c.call("TIME").children();
            assertThat(time.get(0).text()).isEqualTo(Long.toString(START.getEpochSecond()));
            assertThat(time.get(1).text()).isEqualTo("678901");
            assertThat(c.call("LASTSAVE").asLong()).isEqualTo(START.getEpochSecond());

            redis.advanceTime(Duration.ofDays(2).plusSeconds(5));
            assertThat(c.call("TIME").children().get(0).text())
                    .isEqualTo(Long.toString(START.getEpochSecond() + 2 * 86400 + 5));
            Map<String, String> server = InfoCompatibilityTest.info(c, "server").get("server");
            assertThat(server.get("uptime_in_seconds")).isEqualTo(Long.toString(2 * 86400 + 5));
            assertThat(server.get("uptime_in_days")).isEqualTo("2");
            assertThat(server.get("server_time_usec"))
                    .isEqualTo(Long.toString((START.getEpochSecond() + 2 * 86400 + 5) * 1_000_000 + 678901));

            assertThat(c.call("LASTSAVE").asLong()).isEqualTo(START.getEpochSecond());
            c.call("SET", "k", "v");
            assertThat(c.call("SAVE").text()).isEqualTo("OK");
            assertThat(c.call("LASTSAVE").asLong()).isEqualTo(START.getEpochSecond() + 2 * 86400 + 5);
        }
    }

    @Test
    void clientAgeAndIdleFollowTheSimulatorClock() {
        try (RedisSimulator redis = RedisSimulator.builder().clock(Clock.fixed(START, ZoneOffset.UTC)).start();
             RespClient a = new RespClient(redis.host(), redis.port());
             RespClient b = new RespClient(redis.host(), redis.port())) {
            long idB = b.call("CLIENT", "ID").asLong();
            redis.advanceTime(Duration.ofSeconds(90));
            String line = a.call("CLIENT", "LIST", "ID", Long.toString(idB)).text();
            assertThat(line).contains(" age=90 idle=90 ");
            assertThat(a.call("CLIENT", "INFO").text()).contains(" age=90 idle=0 ");
        }
    }
}
