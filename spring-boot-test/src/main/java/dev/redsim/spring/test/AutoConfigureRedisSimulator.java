package dev.redsim.spring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Connects a Spring Boot test's application context to a redsim simulator that lives exactly as long as the
 * context: started when the context is built, closed when Spring closes it (after the beans that use it), and so
 * shared by every test class that Spring's context cache gives the same context. No property is needed.
 *
 * <p>The context gets a {@link org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails} bean (Spring
 * Boot's Redis auto-configuration connects Lettuce or Jedis with it, as with Testcontainers' {@code @ServiceConnection}),
 * the {@code spring.data.redis.*} properties for libraries that read those (Redisson's starter), and the
 * {@link dev.redsim.simulator.RedisSimulator} as a bean, to inject for time control.
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureRedisSimulator
 * class OrderServiceTest {
 *     @Autowired OrderService orders;
 *     @Autowired RedisSimulator redis;
 * }
 * }</pre>
 *
 * Works with {@code @SpringBootTest} and with slices such as {@code @DataRedisTest}, and on {@code @Nested} classes
 * (they share their enclosing class's context).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface AutoConfigureRedisSimulator {

    /** requirepass of the simulator; the connection details and properties carry it. Empty: no password. */
    String password() default "";

    /**
     * Redis configuration parameters at start, as name-value pairs:
     * {@code config = {"notify-keyspace-events", "Ex", "maxmemory-policy", "allkeys-lru"}}.
     */
    String[] config() default {};

    /**
     * Before each test method: empty every database, put the clock back on the real clock and remove any command
     * interceptor, as the JUnit extension does, because tests of many classes share one cached context. Turn it off
     * when tests rely on data the application writes at start-up.
     */
    boolean resetBeforeEachTest() default true;
}
