package dev.redsim.simulator.junit;

import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.concurrent.Semaphore;

/**
 * JUnit 5: an in-process cluster per test class (3 masters unless the builder says otherwise), emptied and its clock
 * put back before each test; test methods (and {@code @BeforeAll} methods) take a {@link RedisCluster} parameter.
 *
 * <pre>{@code
 * @RedisClusterTest
 * class MyTest {
 *     @Test void works(RedisCluster cluster) {
 *         new JedisCluster(new HostAndPort(cluster.host(), cluster.ports().get(0))).set("k", "v");
 *     }
 * }
 * }</pre>
 *
 * or {@code @RegisterExtension static RedisClusterExtension cluster =
 * new RedisClusterExtension(RedisSimulator.cluster().masters(5));}. As with {@link RedisSimulatorExtension}, the
 * cluster lives in JUnit's store (a {@code @Nested} class shares its enclosing class's) and tests take turns on it.
 */
public final class RedisClusterExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
        ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RedisClusterExtension.class);
    private static final String KEY = "cluster";

    private final RedisCluster.Builder builder;
    private final ThreadLocal<Running> current = new ThreadLocal<>();

    public RedisClusterExtension() {
        this(RedisSimulator.cluster());
    }

    public RedisClusterExtension(RedisCluster.Builder builder) {
        this.builder = builder;
    }

    /** The cluster of the running test. */
    public RedisCluster cluster() {
        Running running = current.get();
        if (running == null) {
            throw new IllegalStateException("the cluster is reachable here only while a test runs");
        }
        return running.cluster;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        running(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Running running = running(context);
        running.turn.acquireUninterruptibly();
        current.set(running);
        running.cluster.flushAll();
        running.cluster.resetTopology(); // a slot an earlier test moved is back where the cluster started it
        running.cluster.resetTime();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Running running = current.get();
        current.remove();
        if (running != null) {
            running.turn.release();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Running running = current.get();
        return running != null ? running.cluster : running(context).cluster;
    }

    /** The class's cluster (an enclosing class's for a {@code @Nested} one), started on first use. */
    private Running running(ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(KEY, key -> new Running(builder.start()), Running.class);
    }

    /** A started cluster and the turn its tests take; JUnit closes it with the store that holds it. */
    private static final class Running implements ExtensionContext.Store.CloseableResource {
        final RedisCluster cluster;
        final Semaphore turn = new Semaphore(1);

        Running(RedisCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public void close() {
            cluster.close();
        }
    }
}
