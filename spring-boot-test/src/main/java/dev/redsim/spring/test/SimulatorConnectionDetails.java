package dev.redsim.spring.test;

import dev.redsim.simulator.RedisSimulator;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;

/** Spring Boot's Redis connection details for a running simulator: a standalone server on its host and port. */
final class SimulatorConnectionDetails implements RedisConnectionDetails {
    private final RedisSimulator simulator;
    private final String password;

    SimulatorConnectionDetails(RedisSimulator simulator, String password) {
        this.simulator = simulator;
        this.password = password;
    }

    @Override
    public String getPassword() {
        return password;
    }

    @Override
    public Standalone getStandalone() {
        return Standalone.of(simulator.host(), simulator.port());
    }
}
