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
 * SHUTDOWN on a fresh simulator and a fresh redis-server each: every client is dropped (the caller without a
 * reply), and while a script runs past the busy threshold only SHUTDOWN NOSAVE stops the server.
 */
class ShutdownTest {

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void shutdownDropsEveryClientAndStopsTheServer(String name) {
        try (RedisTarget target = start(name); RespClient caller = client(target); RespClient other = client(target)) {
            other.call("SUBSCRIBE", "news");
            caller.call("SET", "k", "v");
            caller.send(bytes("SHUTDOWN"));
            assertThat(caller.closedByServer()).isTrue(); // no reply: the connection ends
            assertThat(other.closedByServer()).isTrue();
            if (target instanceof SimulatorTarget simulator) {
                assertThat(simulator.simulator().awaitClosed(Duration.ofSeconds(20))).isTrue();
            }
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aBusyScriptLetsOnlyShutdownNosaveThrough(String name) {
        try (RedisTarget target = start(name); RespClient caller = client(target); RespClient admin = client(target)) {
            admin.call("CONFIG", "SET", "busy-reply-threshold", "10");
            caller.send(bytes("EVAL", "local i = 0 while true do i = i + 1 end", "0"));
            String busy;
            do { // until the script is past the threshold: asked, not slept for
                busy = admin.call("PING").text();
            } while (busy.equals("PONG"));
            assertThat(admin.call("SHUTDOWN").text())
                    .isEqualTo("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");
            admin.send(bytes("SHUTDOWN", "NOSAVE"));
            assertThat(admin.closedByServer()).isTrue();
            assertThat(caller.closedByServer()).isTrue();
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
