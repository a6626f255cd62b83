package dev.redsim.spring.test;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

import java.util.List;

/**
 * Finds {@link AutoConfigureRedisSimulator} on a test class (or, for {@code @Nested} classes, an enclosing one) and
 * has Spring's test framework customize that class's context with a simulator. Registered in
 * META-INF/spring.factories, so the annotation is all a test needs.
 */
public final class RedisSimulatorContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        AutoConfigureRedisSimulator annotation =
                TestContextAnnotationUtils.findMergedAnnotation(testClass, AutoConfigureRedisSimulator.class);
        return annotation == null ? null : new RedisSimulatorContextCustomizer(SimulatorSettings.of(annotation));
    }
}
