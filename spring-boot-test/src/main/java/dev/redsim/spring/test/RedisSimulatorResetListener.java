package dev.redsim.spring.test;

import dev.redsim.simulator.RedisSimulator;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.support.AbstractTestExecutionListener;

/**
 * Before each test method of a class with {@link AutoConfigureRedisSimulator}: empties the context's simulator,
 * puts its clock back on the real clock and removes its interceptor, since test classes share cached contexts and
 * one test's data or clock must not reach the next. Registered in META-INF/spring.factories.
 */
public final class RedisSimulatorResetListener extends AbstractTestExecutionListener {

    /** Early, before listeners that prepare data for the test (@Sql and the like run at 5000). */
    @Override
    public int getOrder() {
        return 1900;
    }

    @Override
    public void beforeTestMethod(TestContext testContext) {
        AutoConfigureRedisSimulator annotation = TestContextAnnotationUtils.findMergedAnnotation(
                testContext.getTestClass(), AutoConfigureRedisSimulator.class);
        if (annotation == null || !annotation.resetBeforeEachTest() || !testContext.hasApplicationContext()) {
            return;
        }
        ApplicationContext context = testContext.getApplicationContext();
        if (context.containsBean(RedisSimulatorContextCustomizer.SIMULATOR_BEAN)) {
            RedisSimulator simulator =
                    context.getBean(RedisSimulatorContextCustomizer.SIMULATOR_BEAN, RedisSimulator.class);
            simulator.resetInterceptor();
            simulator.flushAll();
            simulator.resetTime();
        }
    }
}
