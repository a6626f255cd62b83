package dev.redsim.samples.downstream;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RAtomicLong;
import org.redisson.api.RLock;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redisson (Netty-based; its locks, maps and atomics run as Lua scripts on the server): one client for the class,
 * as Redisson clients are costly to start.
 */
class RedissonSampleTest {
    @RegisterExtension
    static final RedisSimulatorExtension REDIS = new RedisSimulatorExtension();

    private static RedissonClient redisson;

    @BeforeAll
    static void connect() {
        Config config = new Config();
        config.useSingleServer()
                .setAddress("redis://" + REDIS.host() + ":" + REDIS.port())
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(4)
                .setSubscriptionConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(2);
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void shutdown() {
        redisson.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Test
    void lockIsExclusiveUntilReleased() throws Exception {
        RLock lock = redisson.getLock("invoice:7:lock");
        assertThat(lock.tryLock(0, 30, TimeUnit.SECONDS)).isTrue();
        // Redisson locks belong to a thread: another thread must not get it while it is held...
        assertThat(onOtherThread(lock)).isFalse();
        lock.unlock();
        // ...and gets it once it is released.
        assertThat(onOtherThread(lock)).isTrue();
    }

    @Test
    void lockLeaseRunsOutWhenTheSimulatorClockMoves() throws Exception {
        RLock lock = redisson.getLock("report:lock");
        assertThat(lock.tryLock(0, 10, TimeUnit.SECONDS)).isTrue(); // a 10 s lease, no watchdog
        assertThat(onOtherThread(lock)).isFalse();
        REDIS.simulator().advanceTime(Duration.ofSeconds(11)); // the holder "crashed": its lease ran out
        assertThat(onOtherThread(lock)).isTrue();
    }

    @Test
    void mapAndAtomicLong() {
        RMap<String, String> prices = redisson.getMap("prices", StringCodec.INSTANCE);
        prices.put("apple", "3");
        assertThat(prices.putIfAbsent("apple", "4")).isEqualTo("3");
        assertThat(prices.replace("apple", "4", "5")).isFalse(); // compare-and-set: the old value is 3
        assertThat(prices.replace("apple", "3", "5")).isTrue();
        assertThat(prices.readAllMap()).containsExactlyEntriesOf(java.util.Map.of("apple", "5"));

        RAtomicLong visits = redisson.getAtomicLong("visits");
        assertThat(visits.incrementAndGet()).isEqualTo(1);
        assertThat(visits.compareAndSet(1, 10)).isTrue();
        assertThat(visits.get()).isEqualTo(10);
    }

    /** tryLock (no wait, 30 s lease) from a thread of its own; releases what it got, so the test ends clean. */
    private static boolean onOtherThread(RLock lock) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                boolean got = lock.tryLock(0, 30, TimeUnit.SECONDS);
                if (got) {
                    lock.unlock();
                }
                return got;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }).get(10, TimeUnit.SECONDS);
    }
}
