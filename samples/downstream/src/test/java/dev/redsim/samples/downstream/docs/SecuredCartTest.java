package dev.redsim.samples.downstream.docs;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorExtension;
import dev.redsim.simulator.junit.SimulatorScope;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SecuredCartTest {
    @RegisterExtension
    static final RedisSimulatorExtension redis = new RedisSimulatorExtension(
            RedisSimulator.builder().password("s3cret").config("notify-keyspace-events", "Ex"), SimulatorScope.CLASS);

    @Test
    void theUriCarriesThePassword() {
        RedisClient client = RedisClient.create(redis.simulator().uri().toString());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.sync().set("cart:1", "2 items");
            assertEquals("2 items", connection.sync().get("cart:1"));
        } finally {
            client.shutdown();
        }
    }
}
