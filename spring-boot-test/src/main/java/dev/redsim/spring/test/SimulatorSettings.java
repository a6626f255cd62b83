package dev.redsim.spring.test;

import dev.redsim.simulator.RedisSimulator;

import java.util.List;

/**
 * What {@link AutoConfigureRedisSimulator} asks for, as a value: Spring's context cache compares test contexts by
 * their customizers, so two test classes that ask for the same simulator share one context (and one simulator).
 */
record SimulatorSettings(String password, List<String> config) {

    static SimulatorSettings of(AutoConfigureRedisSimulator annotation) {
        if (annotation.config().length % 2 != 0) {
            throw new IllegalArgumentException("@AutoConfigureRedisSimulator(config = ...) takes name-value pairs, got "
                    + List.of(annotation.config()));
        }
        return new SimulatorSettings(annotation.password(), List.of(annotation.config()));
    }

    boolean hasPassword() {
        return !password.isEmpty();
    }

    RedisSimulator start() {
        RedisSimulator.Builder builder = RedisSimulator.builder();
        if (hasPassword()) {
            builder.password(password);
        }
        for (int i = 0; i < config.size(); i += 2) {
            builder.config(config.get(i), config.get(i + 1));
        }
        return builder.start();
    }
}
