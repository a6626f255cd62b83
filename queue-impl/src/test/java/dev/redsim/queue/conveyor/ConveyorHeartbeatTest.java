package dev.redsim.queue.conveyor;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heartbeat keeps renewing leases while the upkeep (scheduler and recovery) is stuck, as it is while a transition
 * waits out a slot migration (up to 20 s in RedisConnections.transition, against a 30 s lease). The upkeep is held
 * where it asks the pool for a connection; the clock is manual, so a renewal is seen exactly as the lease's new expiry.
 * On the old runtime the heartbeat shared the upkeep's one thread and never ran while it was held.
 */
class ConveyorHeartbeatTest {
    private static final long START = 1_700_000_000_000L;
    private static final Duration LEASE = Duration.ofMillis(600); // a beat every 200 ms

    /** A pool that holds the upkeep thread's every request for a connection until {@link #release}. */
    private static final class UpkeepHoldingPool extends JedisPool {
        final CountDownLatch upkeepHeld = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        UpkeepHoldingPool(String host, int port) {
            super(host, port);
        }

        @Override
        public Jedis getResource() {
            if (Thread.currentThread().getName().startsWith("conveyor-upkeep-")) {
                upkeepHeld.countDown();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.getResource();
        }

        void release() {
            released.countDown();
        }
    }

    @AcrossTargets
    void leasesAreRenewedWhileTheUpkeepIsStuck(RedisTarget target) throws Exception {
        ManualClock clock = new ManualClock(START);
        ConveyorKeys keys = new ConveyorKeys("{hb-" + UUID.randomUUID() + "}:");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        ConveyorWorkerOptions options = ConveyorWorkerOptions.defaults().withKeys(keys).withClock(clock)
            .withConveyor(ConveyorOptions.defaults().withLease(LEASE));
        try (UpkeepHoldingPool pool = new UpkeepHoldingPool(target.host(), target.port());
             Jedis jedis = new Jedis(target.host(), target.port())) {
            ConveyorWorker worker = ConveyorWorker.start(pool, "q", options, run -> {
                running.countDown();
                finish.await();
            });
            try {
                assertThat(pool.upkeepHeld.await(30, TimeUnit.SECONDS)).as("the upkeep's first round is held").isTrue();
                new Conveyor(jedis, clock, ConveyorOptions.defaults(), keys).add(Deadline.none(),
                    Job.of("q", null).withUuid("long"), false);
                assertThat(running.await(30, TimeUnit.SECONDS)).as("the job is running").isTrue();
                clock.advance(1_000);
                long renewed = START + 1_000 + LEASE.toMillis();
                assertThat(expiryBecomes(jedis, keys, "long", renewed))
                    .as("a heartbeat renewed the lease from the new time while the upkeep was held").isTrue();
            } finally {
                pool.release();
                finish.countDown();
                worker.stop(Duration.ofSeconds(10));
            }
        }
    }

    /** Polls the lease set (bounded: 30 s) until the job's expiry is {@code expected}. */
    private static boolean expiryBecomes(Jedis jedis, ConveyorKeys keys, String uuid, long expected) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            Double score = jedis.zscore(keys.leases(), uuid.getBytes());
            if (score != null && score.longValue() == expected) {
                return true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // between polls of the server, not a wait for time
        }
        return false;
    }
}
