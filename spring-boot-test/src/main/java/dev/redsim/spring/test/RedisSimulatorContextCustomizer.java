package dev.redsim.spring.test;

import dev.redsim.simulator.RedisSimulator;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Starts a simulator for an application context before it is refreshed and makes it part of the context: a bean
 * that Spring closes when the context closes, connection details and properties that point at it.
 *
 * <p>A record, so that equal settings make equal customizers and Spring's context cache shares the context.
 */
record RedisSimulatorContextCustomizer(SimulatorSettings settings) implements ContextCustomizer {
    /** The simulator's bean name: inject it by type, {@link RedisSimulator}. */
    static final String SIMULATOR_BEAN = "redisSimulator";
    static final String CONNECTION_DETAILS_BEAN = "redisSimulatorConnectionDetails";

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
        RedisSimulator simulator = settings.start();
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        beans.registerSingleton(SIMULATOR_BEAN, simulator);
        if (beans instanceof DefaultSingletonBeanRegistry registry) {
            // Spring destroys disposable beans in the reverse order of their registration: registered before the
            // context's own beans exist, the simulator closes after every client bean (Lettuce's connection
            // factory, Redisson's client) has shut down, so none of them sees it go and tries to reconnect. A
            // context whose refresh fails destroys it too.
            registry.registerDisposableBean(SIMULATOR_BEAN, simulator::close);
        } else {
            context.addApplicationListener(event -> {
                if (event instanceof ContextClosedEvent) {
                    simulator.close();
                }
            });
        }
        String password = settings.hasPassword() ? settings.password() : null;
        beans.registerSingleton(CONNECTION_DETAILS_BEAN, new SimulatorConnectionDetails(simulator, password));
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("redsim", properties(simulator)));
    }

    /**
     * Spring Boot's own auto-configuration takes the connection details bean; libraries with their own
     * auto-configuration (Redisson's starter) read these properties. First in the environment: they win over an
     * application.properties that names a real server.
     */
    private Map<String, Object> properties(RedisSimulator simulator) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.data.redis.url", simulator.uri().toString());
        properties.put("spring.data.redis.host", simulator.host());
        properties.put("spring.data.redis.port", simulator.port());
        if (settings.hasPassword()) {
            properties.put("spring.data.redis.password", settings.password());
        }
        return properties;
    }
}
