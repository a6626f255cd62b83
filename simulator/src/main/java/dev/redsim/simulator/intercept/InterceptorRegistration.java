package dev.redsim.simulator.intercept;

/** An installed {@link CommandInterceptor}; closing it puts back the interceptor it replaced (or none). */
@FunctionalInterface
public interface InterceptorRegistration extends AutoCloseable {
    @Override
    void close();
}
