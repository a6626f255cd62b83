package dev.redsim.samples.downstream.docs;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorTest;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@RedisSimulatorTest // one simulator for the class, emptied before each test
class CartTest {
    @Test
    void abandonedCartsExpire(RedisSimulator redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.setex("cart:42", 3600, "3 items");
            redis.advanceTime(Duration.ofMinutes(59)); // no sleeping: the simulator's clock moves
            assertEquals("3 items", jedis.get("cart:42"));
            redis.advanceTime(Duration.ofMinutes(1));
            assertNull(jedis.get("cart:42"));
        }
    }
}
