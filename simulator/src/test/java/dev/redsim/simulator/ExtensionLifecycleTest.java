package dev.redsim.simulator;

import dev.redsim.simulator.junit.RedisSimulatorTest;
import dev.redsim.simulator.junit.SimulatorScope;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The JUnit extension's lifecycle, seen from outside the classes it runs (JUnit's test kit runs the sample
 * classes below): @Nested classes share the enclosing class's simulator, which closes with the class; methods
 * JUnit runs concurrently take turns on a shared simulator; each scope starts and closes what it says.
 */
class ExtensionLifecycleTest {
    static final Map<String, Integer> PORTS = new ConcurrentHashMap<>();

    @RedisSimulatorTest
    static class OuterSample {
        @Test
        void outer(RedisSimulator redis) {
            PORTS.put("outer", redis.port());
        }

        @Nested
        class Inner {
            @Test
            void inner(RedisSimulator redis) {
                PORTS.put("inner", redis.port());
            }
        }
    }

    @Test
    void nestedClassesShareTheEnclosingSimulatorWhichClosesWithTheClass() {
        run(OuterSample.class).assertStatistics(s -> s.started(2).succeeded(2));
        assertThat(PORTS.get("inner")).isEqualTo(PORTS.get("outer"));
        assertNotListening(PORTS.get("outer"));
    }

    @RedisSimulatorTest
    @Execution(ExecutionMode.CONCURRENT)
    static class ConcurrentSample {
        @RepeatedTest(8)
        void ownsTheSimulatorForItsWholeTest(RedisSimulator redis) throws IOException {
            try (TinyClient client = new TinyClient(redis)) {
                for (int i = 1; i <= 100; i++) {
                    assertThat(client.call("INCR mine")).isEqualTo(":" + i);
                    assertThat(client.call("DBSIZE")).isEqualTo(":1");
                }
            }
        }
    }

    @Test
    void methodsRunConcurrentlyTakeTurnsOnTheirSimulator() {
        EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "4")
                .selectors(selectClass(ConcurrentSample.class))
                .execute().testEvents()
                .assertStatistics(s -> s.started(8).succeeded(8));
    }

    @RedisSimulatorTest(scope = SimulatorScope.TEST)
    static class PerTestSample {
        @RepeatedTest(3)
        void ownSimulator(RedisSimulator redis, RepetitionInfo repetition) {
            PORTS.put("test" + repetition.getCurrentRepetition(), redis.port());
        }
    }

    @Test
    void scopeTestGivesEachTestItsOwnSimulatorClosedAfterIt() {
        run(PerTestSample.class).assertStatistics(s -> s.started(3).succeeded(3));
        assertThat(java.util.Set.of(PORTS.get("test1"), PORTS.get("test2"), PORTS.get("test3"))).hasSize(3);
        assertNotListening(PORTS.get("test1"));
        assertNotListening(PORTS.get("test3"));
    }

    /** Both classes do the same, so the order JUnit runs them in does not matter. */
    abstract static class JvmScoped {
        @Test
        void startsEmptyOnTheRealClock(RedisSimulator redis) throws IOException {
            PORTS.put(getClass().getSimpleName(), redis.port());
            try (TinyClient client = new TinyClient(redis)) {
                assertThat(client.call("DBSIZE")).isEqualTo(":0");
                client.send("TIME");
                assertThat(client.readLine()).isEqualTo("*2");
                long seconds = Long.parseLong(client.readLine());
                client.readLine();
                assertThat(Math.abs(seconds - System.currentTimeMillis() / 1000)).isLessThan(60);
                assertThat(client.call("SET left over")).isEqualTo("+OK");
            }
            redis.advanceTime(Duration.ofHours(1));
            redis.freezeTime();
        }
    }

    @RedisSimulatorTest(scope = SimulatorScope.JVM)
    static class JvmSampleA extends JvmScoped {
    }

    @RedisSimulatorTest(scope = SimulatorScope.JVM)
    static class JvmSampleB extends JvmScoped {
    }

    @Test
    void scopeJvmSharesOneSimulatorResetBetweenTestsAndClosedAtTheEnd() {
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(JvmSampleA.class), selectClass(JvmSampleB.class))
                .execute().testEvents().assertStatistics(s -> s.started(2).succeeded(2));
        assertThat(PORTS.get("JvmSampleA")).isEqualTo(PORTS.get("JvmSampleB"));
        assertNotListening(PORTS.get("JvmSampleA"));
    }

    private static Events run(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute().testEvents();
    }

    private static void assertNotListening(int port) {
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    }
}
