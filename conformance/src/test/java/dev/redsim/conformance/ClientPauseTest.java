package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CLIENT PAUSE holds commands, on a fresh simulator and a fresh redis-server each: WRITE holds writes only and
 * CLIENT UNPAUSE releases them; ALL holds everything, CLIENT UNPAUSE included, until its time has passed (the
 * simulator's clock is moved; Redis's runs). "Nothing yet" is a read that times out after 200 ms while the pause
 * lasts far longer.
 */
class ClientPauseTest {

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void writePauseHoldsWritesUntilUnpaused(String name) {
        try (RedisTarget target = start(name); RespClient pauser = client(target); RespClient other = client(target)) {
            other.call("SET", "k", "before");
            assertThat(pauser.call("CLIENT", "PAUSE", "60000", "WRITE").text()).isEqualTo("OK");
            assertThat(other.call("GET", "k").text()).isEqualTo("before"); // reads go on
            other.send(bytes("SET", "k", "during"));
            other.send(bytes("GET", "k"));
            other.setTimeoutMillis(200);
            assertThat(other.receivesNothing()).isTrue(); // the write waits, and the read queued behind it
            other.setTimeoutMillis(10_000);
            assertThat(pauser.call("CLIENT", "UNPAUSE").text()).isEqualTo("OK");
            assertThat(other.read().text()).isEqualTo("OK");
            assertThat(other.read().text()).isEqualTo("during");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void allPauseHoldsEveryCommandUntilItsTimePasses(String name) {
        try (RedisTarget target = start(name); RespClient pauser = client(target); RespClient other = client(target)) {
            assertThat(pauser.call("CLIENT", "PAUSE", "1000", "ALL").text()).isEqualTo("OK");
            pauser.send(bytes("CLIENT", "UNPAUSE")); // held like any other command
            pauser.send(bytes("PING", "pauser"));
            other.send(bytes("PING", "other"));
            other.setTimeoutMillis(200);
            assertThat(other.receivesNothing()).isTrue();
            other.setTimeoutMillis(10_000);
            if (target instanceof SimulatorTarget simulator) {
                simulator.simulator().advanceTime(Duration.ofMillis(1001));
            }
            assertThat(pauser.read().text()).isEqualTo("OK");
            assertThat(pauser.read().text()).isEqualTo("pauser");
            assertThat(other.read().text()).isEqualTo("other");
        }
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
            result[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return result;
    }
}
