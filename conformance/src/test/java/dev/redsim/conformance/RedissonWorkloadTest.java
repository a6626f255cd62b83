package dev.redsim.conformance;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import org.redisson.Redisson;
import org.redisson.api.RAtomicDouble;
import org.redisson.api.RAtomicLong;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RBucket;
import org.redisson.api.RCountDownLatch;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RLock;
import org.redisson.api.RMap;
import org.redisson.api.RMapCache;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RScoredSortedSet;
import org.redisson.api.RSemaphore;
import org.redisson.api.RSetCache;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.LongCodec;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redisson, unchanged, as a real Lua workload: its locks, maps, atomics, caches, rate limiter, semaphores and delayed
 * queue are Lua scripts (EVAL/EVALSHA, with struct.pack/unpack and cjson inside), so each test is one workload that
 * must behave the same on the simulator as on redis-server. Waits are Redisson's own (pub/sub notifications), never
 * sleeps; every TTL used is long, so no test depends on the passage of time.
 */
class RedissonWorkloadTest {

    @AcrossTargets
    void reentrantLockIsExclusiveAcrossThreads(RedisTarget target) throws Exception {
        withRedisson(target, redisson -> {
            RLock lock = redisson.getLock("rlock:" + target.name());
            lock.lock();
            lock.lock();
            assertThat(lock.getHoldCount()).isEqualTo(2);
            assertThat(lock.isLocked()).isTrue();
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            assertThat(tryLockFromAnotherThread(lock)).as("another thread cannot take a held lock").isFalse();
            lock.unlock();
            assertThat(lock.isLocked()).isTrue();
            lock.unlock();
            assertThat(lock.isLocked()).isFalse();
            assertThat(tryLockFromAnotherThread(lock)).as("a released lock can be taken").isTrue();
            lock.forceUnlock();

            // Mutual exclusion under contention: a read-modify-write that only the lock makes safe.
            RBucket<String> counter = redisson.getBucket("rlock:counter:" + target.name(), StringCodec.INSTANCE);
            counter.set("0");
            int threads = 4;
            int rounds = 25;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<CompletableFuture<Void>> work = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    work.add(CompletableFuture.runAsync(() -> {
                        for (int i = 0; i < rounds; i++) {
                            lock.lock();
                            try {
                                counter.set(Integer.toString(Integer.parseInt(counter.get()) + 1));
                            } finally {
                                lock.unlock();
                            }
                        }
                    }, pool));
                }
                CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            assertThat(counter.get()).isEqualTo(Integer.toString(threads * rounds));
            assertThat(lock.isLocked()).isFalse();
        });
    }

    @AcrossTargets
    void leasedAndReadWriteLocks(RedisTarget target) throws Exception {
        withRedisson(target, redisson -> {
            RLock leased = redisson.getLock("rlock:leased:" + target.name());
            assertThat(leased.tryLock(0, 60, TimeUnit.SECONDS)).isTrue();
            assertThat(leased.remainTimeToLive()).isBetween(1L, 60_000L);
            leased.unlock();
            assertThat(leased.remainTimeToLive()).isEqualTo(-2L);

            RReadWriteLock rw = redisson.getReadWriteLock("rwlock:" + target.name());
            rw.readLock().lock();
            assertThat(tryLockFromAnotherThread(rw.readLock())).as("readers share").isTrue();
            assertThat(tryLockFromAnotherThread(rw.writeLock())).as("a writer waits for readers").isFalse();
            rw.readLock().unlock();
            rw.readLock().forceUnlock();
            rw.writeLock().lock();
            assertThat(tryLockFromAnotherThread(rw.readLock())).as("readers wait for the writer").isFalse();
            rw.writeLock().unlock();
            assertThat(rw.writeLock().isLocked()).isFalse();

            RLock fair = redisson.getFairLock("rfair:" + target.name());
            fair.lock();
            assertThat(tryLockFromAnotherThread(fair)).isFalse();
            fair.unlock();
            assertThat(fair.isLocked()).isFalse();
        });
    }

    @AcrossTargets
    void mapScriptsReturnPreviousValues(RedisTarget target) throws Exception {
        withRedisson(target, redisson -> {
            RMap<String, String> map = redisson.getMap("rmap:" + target.name(), StringCodec.INSTANCE);
            assertThat(map.put("a", "1")).isNull();
            assertThat(map.put("a", "2")).isEqualTo("1");
            assertThat(map.putIfAbsent("a", "3")).isEqualTo("2");
            assertThat(map.putIfAbsent("b", "3")).isNull();
            assertThat(map.fastPut("c", "4")).isTrue();
            assertThat(map.fastPutIfAbsent("c", "5")).isFalse();
            assertThat(map.replace("a", "2", "20")).isTrue();
            assertThat(map.replace("a", "2", "21")).isFalse();
            assertThat(map.replace("zz", "x")).isNull();
            assertThat(map.remove("b", "nope")).isFalse();
            assertThat(map.remove("b", "3")).isTrue();
            assertThat(map.readAllMap()).isEqualTo(Map.of("a", "20", "c", "4"));
            assertThat(map.getAll(java.util.Set.of("a", "c", "missing"))).isEqualTo(Map.of("a", "20", "c", "4"));
            assertThat(map.fastRemove("a", "c", "missing")).isEqualTo(2L);
            assertThat(map.size()).isZero();

            RMap<Long, Long> counters = redisson.getMap("rmap:counters:" + target.name(), LongCodec.INSTANCE);
            assertThat(counters.addAndGet(1L, 5L)).isEqualTo(5L);
            assertThat(counters.addAndGet(1L, -7L)).isEqualTo(-2L);
            assertThat(counters.get(1L)).isEqualTo(-2L);
        });
    }

    @AcrossTargets
    void atomicNumbersAndCountDownLatch(RedisTarget target) throws Exception {
        withRedisson(target, redisson -> {
            RAtomicLong along = redisson.getAtomicLong("ralong:" + target.name());
            along.set(10);
            assertThat(along.incrementAndGet()).isEqualTo(11);
            assertThat(along.getAndAdd(5)).isEqualTo(11);
            assertThat(along.compareAndSet(16, 100)).isTrue();
            assertThat(along.compareAndSet(16, 200)).isFalse();
            assertThat(along.getAndSet(7)).isEqualTo(100);
            assertThat(along.getAndDelete()).isEqualTo(7);
            assertThat(along.isExists()).isFalse();

            RAtomicDouble adouble = redisson.getAtomicDouble("radouble:" + target.name());
            assertThat(adouble.addAndGet(1.5)).isEqualTo(1.5);
            assertThat(adouble.compareAndSet(1.5, 2.25)).isTrue();
            assertThat(adouble.get()).isEqualTo(2.25);

            RCountDownLatch latch = redisson.getCountDownLatch("rlatch:" + target.name());
            assertThat(latch.trySetCount(2)).isTrue();
            assertThat(latch.trySetCount(5)).isFalse();
            latch.countDown();
            assertThat(latch.getCount()).isEqualTo(1);
            latch.countDown();
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        });
    }

    @AcrossTargets
    void mapCacheAndSetCacheUseStructPackedEntries(RedisTarget target) throws Exception {
        withRedisson(target, redisson -> {
            RMapCache<String, String> cache = redisson.getMapCache("rmapcache:" + target.name(), StringCodec.INSTANCE);
            assertThat(cache.put("k1", "v1", 1, TimeUnit.HOURS)).isNull();
            assertThat(cache.put("k1", "v2", 1, TimeUnit.HOURS)).isEqualTo("v1");
            assertThat(cache.putIfAbsent("k2", "w", 2, TimeUnit.HOURS)).isNull();
            assertThat(cache.fastPut("k3", "x", 1, TimeUnit.HOURS, 30, TimeUnit.MINUTES)).isTrue();
            assertThat(cache.get("k1")).isEqualTo("v2");
            assertThat(cache.get("k3")).isEqualTo("x");
            assertThat(cache.containsKey("k2")).isTrue();
            assertThat(cache.remainTimeToLive("k2")).isBetween(3_500_000L, 7_200_000L);
            assertThat(cache.size()).isEqualTo(3);
            assertThat(cache.remove("k1")).isEqualTo("v2");
            assertThat(cache.readAllMap()).isEqualTo(Map.of("k2", "w", "k3", "x"));

            RSetCache<String> set = redisson.getSetCache("rsetcache:" + target.name(), StringCodec.INSTANCE);
            assertThat(set.add("m", 1, TimeUnit.HOURS)).isTrue();
            assertThat(set.add("m", 1, TimeUnit.HOURS)).isFalse();
            assertThat(set.contains("m")).isTrue();
            assertThat(set.size()).isEqualTo(1);
        });
    }

    @AcrossTargets
    void rateLimiterAndSemaphores(RedisTarget target) throws Exception {
        withRedisson(target, redisson -> {
            RRateLimiter limiter = redisson.getRateLimiter("rlimiter:" + target.name());
            assertThat(limiter.trySetRate(RateType.OVERALL, 3, Duration.ofHours(1))).isTrue();
            assertThat(limiter.tryAcquire()).isTrue();
            assertThat(limiter.tryAcquire(2)).isTrue();
            assertThat(limiter.tryAcquire()).as("the hour's three permits are spent").isFalse();
            assertThat(limiter.availablePermits()).isZero();

            RSemaphore semaphore = redisson.getSemaphore("rsemaphore:" + target.name());
            assertThat(semaphore.trySetPermits(2)).isTrue();
            assertThat(semaphore.tryAcquire()).isTrue();
            assertThat(semaphore.tryAcquire(2)).isFalse();
            semaphore.release();
            assertThat(semaphore.availablePermits()).isEqualTo(2);

            RPermitExpirableSemaphore leased = redisson.getPermitExpirableSemaphore("rpsemaphore:" + target.name());
            assertThat(leased.trySetPermits(1)).isTrue();
            String permit = leased.tryAcquire(0, 1, TimeUnit.HOURS);
            assertThat(permit).isNotNull();
            assertThat(leased.tryAcquire(0, 1, TimeUnit.HOURS)).isNull();
            assertThat(leased.tryRelease(permit)).isTrue();
            assertThat(leased.availablePermits()).isEqualTo(1);
        });
    }

    @AcrossTargets
    void delayedQueueAndScoredSortedSet(RedisTarget target) throws Exception {
        withRedisson(target, redisson -> {
            RBlockingQueue<String> destination = redisson.getBlockingQueue("rqueue:" + target.name(), StringCodec.INSTANCE);
            RDelayedQueue<String> delayed = redisson.getDelayedQueue(destination);
            try {
                delayed.offer("later", 1, TimeUnit.HOURS);
                delayed.offer("much later", 2, TimeUnit.HOURS);
                assertThat(delayed.size()).isEqualTo(2);
                assertThat(delayed.readAll()).containsExactly("later", "much later");
                assertThat(destination.isEmpty()).as("nothing is due yet").isTrue();
                assertThat(delayed.remove("later")).isTrue();
                assertThat(delayed.size()).isEqualTo(1);
            } finally {
                delayed.destroy();
            }

            RScoredSortedSet<String> zset = redisson.getScoredSortedSet("rzset:" + target.name(), StringCodec.INSTANCE);
            assertThat(zset.add(2.0, "b")).isTrue();
            assertThat(zset.tryAdd(1.0, "b")).isFalse();
            assertThat(zset.addScore("a", 1.5)).isEqualTo(1.5);
            assertThat(zset.first()).isEqualTo("a");
            assertThat(zset.pollFirst()).isEqualTo("a");
            assertThat(zset.readAll()).containsExactly("b");
        });
    }

    // ---- helpers ----

    private interface Workload {
        void run(RedissonClient redisson) throws Exception;
    }

    /** One Redisson client per test and target, on a flushed database, shut down afterwards. */
    private static void withRedisson(RedisTarget target, Workload workload) throws Exception {
        Config config = new Config();
        config.useSingleServer()
                .setAddress("redis://" + target.host() + ":" + target.port())
                .setConnectionMinimumIdleSize(1)
                .setConnectionPoolSize(8)
                .setSubscriptionConnectionMinimumIdleSize(1)
                .setSubscriptionConnectionPoolSize(2)
                .setTimeout(10_000)
                .setRetryAttempts(0);
        config.setNettyThreads(4);
        RedissonClient redisson = Redisson.create(config);
        try {
            redisson.getKeys().flushdb();
            workload.run(redisson);
        } finally {
            redisson.shutdown(0, 5, TimeUnit.SECONDS);
        }
    }

    /** tryLock with no wait from a fresh thread (Redisson locks are owned by thread); releases what it took. */
    private static boolean tryLockFromAnotherThread(RLock lock) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            boolean taken = lock.tryLock();
            if (taken) {
                lock.unlock();
            }
            return taken;
        }).get(10, TimeUnit.SECONDS);
    }
}
