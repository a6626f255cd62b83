package dev.redsim.queue.time;

import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPool;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** RedisClock: TIME read at most once per resample period, extrapolated in between, never backwards. */
class RedisClockTest {
    @Test
    void followsTheServersTimeNotTheHosts() {
        try (RedisSimulator redis = RedisSimulator.builder().port(0).bind("127.0.0.1").start();
             JedisPool pool = new JedisPool(redis.host(), redis.port())) {
            redis.freezeTime();
            RedisClock clock = RedisClock.over(pool, Duration.ZERO);
            long before = clock.millis();
            assertThat(before).isEqualTo(redis.currentTimeMillis());
            redis.advanceTime(Duration.ofSeconds(45));
            assertThat(clock.millis()).isEqualTo(before + 45_000);
        }
    }

    @Test
    void asksTimeOncePerPeriodAndNeverGoesBack() {
        AtomicLong nanos = new AtomicLong();
        AtomicInteger asked = new AtomicInteger();
        ArrayDeque<Long> answers = new ArrayDeque<>(List.of(10_000L, 10_500L, 10_100L));
        RedisClock clock = new RedisClock(() -> {
            asked.incrementAndGet();
            return Instant.ofEpochMilli(answers.poll());
        }, nanos::get, Duration.ofSeconds(1));
        assertThat(clock.millis()).isEqualTo(10_000);
        nanos.addAndGet(400_000_000);
        assertThat(clock.millis()).as("extrapolated").isEqualTo(10_400);
        assertThat(asked).hasValue(1);
        nanos.addAndGet(600_000_000);
        assertThat(clock.millis()).as("resampled").isEqualTo(10_500);
        nanos.addAndGet(1_000_000_000);
        assertThat(clock.millis()).as("TIME went back to 10,100: the clock holds").isEqualTo(10_500);
        assertThat(asked).hasValue(3);
    }
}
