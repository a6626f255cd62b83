package dev.redsim.spring.sample;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.spring.test.AutoConfigureRedisSimulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * A simulator lives exactly as long as its cached application context, seen from outside the test classes that
 * use it (JUnit's test kit runs the samples below): two classes with the same context share one simulator, each
 * test starts on an empty one with a reset clock, and when Spring closes the context every client bean shuts down
 * while the simulator still answers, then the simulator closes; nothing logs a reconnect attempt.
 */
@ExtendWith(OutputCaptureExtension.class)
class ContextLifetimeTest {
    static final Map<String, Integer> PORTS = new ConcurrentHashMap<>();
    static final List<Boolean> SIMULATOR_UP_AT_BEAN_DESTRUCTION = new CopyOnWriteArrayList<>();

    /** A bean of the context, destroyed with it: is the simulator still answering at that moment? */
    static class ShutdownProbe implements DisposableBean {
        private final int port;

        ShutdownProbe(Environment environment) {
            this.port = environment.getRequiredProperty("spring.data.redis.port", Integer.class);
        }

        @Override
        public void destroy() {
            SIMULATOR_UP_AT_BEAN_DESTRUCTION.add(answersPing(port));
        }
    }

    @SpringBootTest
    @AutoConfigureRedisSimulator
    @Import(ShutdownProbe.class)
    static class FirstSample {
        @Autowired
        RedisSimulator redis;
        @Autowired
        StringRedisTemplate template;

        @Test
        void leavesDataAndAMovedClockBehind() {
            PORTS.put("first", redis.port());
            template.opsForValue().set("left-over", "x");
            redis.advanceTime(Duration.ofDays(1));
        }
    }

    @SpringBootTest
    @AutoConfigureRedisSimulator
    @Import(ShutdownProbe.class)
    @DirtiesContext // closes the context after this class, as the context cache does when it evicts one
    static class SecondSample {
        @Autowired
        RedisSimulator redis;
        @Autowired
        StringRedisTemplate template;

        @Test
        void startsOnAnEmptySimulatorWithItsClockReset() {
            PORTS.put("second", redis.port());
            assertThat(template.hasKey("left-over")).isFalse();
            assertThat(Math.abs(redis.currentTimeMillis() - System.currentTimeMillis())).isLessThan(60_000);
        }
    }

    @Test
    void theSimulatorIsSharedByItsContextAndClosesAfterItsClientsWhenTheContextCloses(CapturedOutput output) {
        EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(FirstSample.class), selectClass(SecondSample.class))
                .execute().testEvents()
                .assertStatistics(s -> s.started(2).succeeded(2));

        assertThat(PORTS.get("second")).isEqualTo(PORTS.get("first"));
        assertThat(SIMULATOR_UP_AT_BEAN_DESTRUCTION).containsExactly(true);
        assertThatThrownBy(() -> new Socket("127.0.0.1", PORTS.get("first")).close())
                .isInstanceOf(ConnectException.class);
        assertThat(output.getAll())
                .doesNotContain("Cannot reconnect")
                .doesNotContain("Reconnecting")
                .doesNotContain("Connection refused")
                .doesNotContainPattern("(?m)\\bWARN\\b.*(io\\.lettuce|org\\.redisson|io\\.netty|o\\.s\\.d\\.redis)");
    }

    private static boolean answersPing(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] reply = in.readNBytes(7);
            return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException e) {
            return false;
        }
    }
}
