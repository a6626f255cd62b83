package dev.redsim.simulator.junit;

import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * JUnit 5: a simulator per test class (or per test, or per JVM: {@link SimulatorScope}), emptied, with its clock
 * back on the real clock and the builder's command interceptor (or none) before each test.
 *
 * <pre>{@code
 * @RedisSimulatorTest
 * class MyTest {
 *     @Test void works(RedisSimulator redis) { new Jedis(redis.host(), redis.port()).set("k", "v"); }
 * }
 * }</pre>
 *
 * or, to choose options, {@code @RegisterExtension static RedisSimulatorExtension redis =
 * new RedisSimulatorExtension(RedisSimulator.builder().password("secret"));} and {@code redis.simulator()}.
 *
 * <p>State lives in JUnit's extension store, not in this object (which JUnit shares between a class and its
 * {@code @Nested} classes): a nested class finds its enclosing class's simulator, and each simulator is closed
 * when the scope that started it ends. Tests that share a simulator take turns on it (a lock held from before
 * each test to after it), so JUnit's concurrent execution of methods cannot let one test's flush hit another's
 * data; {@link SimulatorScope#TEST} gives each test its own simulator instead.
 */
public final class RedisSimulatorExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
        ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RedisSimulatorExtension.class);
    private static final String KEY = "simulator";

    private final RedisSimulator.Builder builder;
    private final SimulatorScope fixedScope;
    /** The simulator of the test running on each thread (JUnit runs a test's callbacks and body on one thread). */
    private final ThreadLocal<Running> current = new ThreadLocal<>();
    /** The last simulator started for a class, for simulator() outside a test (a static @DynamicPropertySource). */
    private volatile Running lastShared;

    public RedisSimulatorExtension() {
        this(RedisSimulator.builder(), null);
    }

    public RedisSimulatorExtension(RedisSimulator.Builder builder) {
        this(builder, null);
    }

    public RedisSimulatorExtension(RedisSimulator.Builder builder, SimulatorScope scope) {
        this.builder = builder;
        this.fixedScope = scope;
    }

    /** The simulator of the running test (or, outside a test, of the running class). */
    public RedisSimulator simulator() {
        Running running = current.get();
        if (running == null) {
            running = lastShared;
        }
        if (running == null) {
            throw new IllegalStateException("the simulator runs only while its tests run");
        }
        return running.simulator;
    }

    public String host() {
        return simulator().host();
    }

    public int port() {
        return simulator().port();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        SimulatorScope scope = scope(context);
        if (scope != SimulatorScope.TEST) {
            // getOrComputeIfAbsent looks in the enclosing classes' stores first: @Nested classes share
            lastShared = sharedStore(context, scope).getOrComputeIfAbsent(KEY, key -> new Running(builder.start()),
                    Running.class);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        SimulatorScope scope = scope(context);
        Running running;
        if (scope == SimulatorScope.TEST) {
            running = new Running(builder.start());
            context.getStore(NAMESPACE).put(KEY, running); // closed with the test's context
        } else {
            running = sharedStore(context, scope).getOrComputeIfAbsent(KEY, key -> new Running(builder.start()),
                    Running.class);
            running.turn.acquireUninterruptibly();
        }
        current.set(running);
        RedisSimulator simulator = running.simulator;
        simulator.resetInterceptor(); // a fault one test injected must not reach the next
        simulator.flushAll();
        simulator.resetTime();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Running running = current.get();
        current.remove();
        if (running != null && scope(context) != SimulatorScope.TEST) {
            running.turn.release();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisSimulator.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Running running = current.get();
        if (running == null && scope(context) != SimulatorScope.TEST) {
            // a constructor or @BeforeAll parameter: the class's simulator, started by beforeAll
            running = sharedStore(context, scope(context)).get(KEY, Running.class);
        }
        if (running == null) {
            throw new ParameterResolutionException("a simulator of scope TEST exists only inside each test");
        }
        return running.simulator;
    }

    /** The scope given to the constructor, else the nearest @RedisSimulatorTest (enclosing classes too). */
    private SimulatorScope scope(ExtensionContext context) {
        if (fixedScope != null) {
            return fixedScope;
        }
        for (Optional<Class<?>> type = context.getTestClass(); type.isPresent();
                type = Optional.ofNullable(type.get().getEnclosingClass())) {
            Optional<RedisSimulatorTest> annotation =
                    AnnotationSupport.findAnnotation(type.get(), RedisSimulatorTest.class);
            if (annotation.isPresent()) {
                return annotation.get().scope();
            }
        }
        return SimulatorScope.CLASS;
    }

    private static ExtensionContext.Store sharedStore(ExtensionContext context, SimulatorScope scope) {
        return (scope == SimulatorScope.JVM ? context.getRoot() : context).getStore(NAMESPACE);
    }

    /** A started simulator and the turn its tests take; JUnit closes it with the store that holds it. */
    private static final class Running implements ExtensionContext.Store.CloseableResource {
        final RedisSimulator simulator;
        final Semaphore turn = new Semaphore(1);

        Running(RedisSimulator simulator) {
            this.simulator = simulator;
        }

        @Override
        public void close() {
            simulator.close();
        }
    }
}
