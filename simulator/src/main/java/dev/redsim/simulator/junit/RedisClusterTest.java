package dev.redsim.simulator.junit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that gets an in-process 3-master cluster, one per class; test methods take a
 * {@code RedisCluster} parameter (see {@link RedisClusterExtension}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RedisClusterExtension.class)
public @interface RedisClusterTest {
}
