package dev.redsim.samples.downstream.docs;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RMapCache;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@RedisSimulatorTest
class ClientClockTest {
    RedissonClient redisson;

    @BeforeEach
    void connect(RedisSimulator redis) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri().toString());
        redisson = Redisson.create(config);
    }

    @AfterEach
    void disconnect() {
        redisson.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Test
    void keyTimeToLiveFollowsTheSimulatorsClock(RedisSimulator redis) {
        RBucket<String> session = redisson.getBucket("session", StringCodec.INSTANCE);
        session.set("ada", Duration.ofSeconds(10)); // SET ... PX: the server keeps the time
        redis.advanceTime(Duration.ofSeconds(11));
        assertNull(session.get());
    }

    @Test
    void entryTimeToLiveOfRMapCacheFollowsTheClientsClock(RedisSimulator redis) {
        RMapCache<String, String> sessions = redisson.getMapCache("sessions", StringCodec.INSTANCE);
        sessions.put("ada", "logged in", 10, TimeUnit.SECONDS); // expiry computed from System.currentTimeMillis()
        redis.advanceTime(Duration.ofSeconds(11));
        assertEquals("logged in", sessions.get("ada")); // still there: the JVM's clock has not moved
    }
}
