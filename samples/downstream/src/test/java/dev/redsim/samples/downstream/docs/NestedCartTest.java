package dev.redsim.samples.downstream.docs;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import static org.junit.jupiter.api.Assertions.assertEquals;

@RedisSimulatorTest
class NestedCartTest {
    @Test
    void startsEmpty(RedisSimulator redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            assertEquals(0, jedis.dbSize());
        }
    }

    @Nested
    class WhenACartHasItems { // the same simulator as the enclosing class, emptied before each test
        @Test
        void countsThem(RedisSimulator redis) {
            try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
                jedis.hset("cart:7", "apples", "3");
                jedis.hincrBy("cart:7", "apples", 2);
                assertEquals("5", jedis.hget("cart:7", "apples"));
            }
        }
    }
}
