package dev.redsim.simulator.junit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that gets a simulator: {@code @RedisSimulatorTest} (one per class, the default) or
 * {@code @RedisSimulatorTest(scope = SimulatorScope.JVM)}; test methods take a {@code RedisSimulator} parameter.
 * {@code @Nested} classes share their enclosing class's simulator.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RedisSimulatorExtension.class)
public @interface RedisSimulatorTest {
    SimulatorScope scope() default SimulatorScope.CLASS;
}
