package dev.redsim.conformance.junit;

import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a test once per selected target, with the target as a {@link dev.redsim.conformance.target.RedisTarget}
 * parameter: write the test once, run it on the simulator and on real Redis.
 *
 * <pre>{@code
 * @AcrossTargets
 * void incrementsAtomically(RedisTarget target) { ... }
 * }</pre>
 *
 * The targets come from -Dredsim.targets (or REDSIM_TARGETS): a comma list of "simulator" and "redis" (a
 * redis-server from PATH, or REDIS_URL); both by default.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith(TargetsExtension.class)
public @interface AcrossTargets {
}
