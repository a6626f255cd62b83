package dev.redsim.simulator.junit;

import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5: one simulator per test class, emptied, with its clock running normally and the builder's command
 * interceptor (or none) before each test.
 *
 * <pre>{@code
 * @ExtendWith(RedisSimulatorExtension.class)
 * class MyTest {
 *     @Test void works(RedisSimulator redis) { new Jedis(redis.host(), redis.port()).set("k", "v"); }
 * }
 * }</pre>
 *
 * or, to choose options, {@code @RegisterExtension static RedisSimulatorExtension redis =
 * new RedisSimulatorExtension(RedisSimulator.builder().password("secret"));} and {@code redis.simulator()}.
 */
public final class RedisSimulatorExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        ParameterResolver {
    private final RedisSimulator.Builder builder;
    private RedisSimulator simulator;

    public RedisSimulatorExtension() {
        this(RedisSimulator.builder());
    }

    public RedisSimulatorExtension(RedisSimulator.Builder builder) {
        this.builder = builder;
    }

    /** The running simulator (between the class's first and last test). */
    public RedisSimulator simulator() {
        if (simulator == null) {
            throw new IllegalStateException("the simulator runs only while the test class runs");
        }
        return simulator;
    }

    public String host() {
        return simulator().host();
    }

    public int port() {
        return simulator().port();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        simulator = builder.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (simulator != null) {
            simulator.close();
            simulator = null;
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        simulator().unfreezeTime();
        simulator().resetInterceptor(); // a fault one test injected must not reach the next
        simulator().flushAll();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisSimulator.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return simulator();
    }
}
