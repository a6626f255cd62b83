package dev.redsim.queue.conveyor;

import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.queue.time.RedisClock;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leases on the server's time line when the server's time steps (an NTP correction, a failover to a host whose
 * clock differs; the simulator's advanceTime here): a process whose Redis clock has not sampled TIME since the step
 * claims a job, and a process that has runs lease recovery. The lease must be measured from the server's time at
 * the claim, so the job is not taken back until the lease really passed. Simulator only: redis-server's time cannot
 * be moved. Before the claim, extend and recovery became scripts reading TIME, the stale process wrote an expiry
 * already in the past by the server's time and the other process requeued the running job at once (the third run
 * of RuntimeContract's skew control, issue 18).
 */
class ConveyorServerTimeTest {
    private static final Duration LEASE = Duration.ofSeconds(20);

    /** A Redis clock that samples TIME only when told to, as RedisClock does between its once-a-second samples. */
    private static RedisClock sampledOnDemand(Jedis jedis, java.util.function.LongSupplier samples) {
        return new RedisClock(() -> RedisClock.parse(jedis.time()), samples, Duration.ofNanos(1));
    }

    @Test
    void aClaimByAProcessThatHasNotSeenAStepOfTheServersTimeIsNotTakenBackEarly() {
        try (SimulatorTarget server = new SimulatorTarget();
             Jedis stale = new Jedis(server.host(), server.port());
             Jedis fresh = new Jedis(server.host(), server.port());
             Jedis staleTime = new Jedis(server.host(), server.port());
             Jedis freshTime = new Jedis(server.host(), server.port())) {
            AtomicLong staleSamples = new AtomicLong();
            RedisClock staleClock = sampledOnDemand(staleTime, staleSamples::get); // samples once, below
            AtomicLong freshSamples = new AtomicLong();
            RedisClock freshClock = sampledOnDemand(freshTime, freshSamples::incrementAndGet); // on every reading
            ConveyorOptions options = ConveyorOptions.defaults().withLease(LEASE);
            ConveyorKeys keys = ConveyorKeys.standard();
            Conveyor claimer = new Conveyor(stale, staleClock, options, keys);
            Conveyor recoverer = new Conveyor(fresh, freshClock, options, keys);
            Job job = claimer.add(Deadline.none(), Job.of("q", "p".getBytes()), false);
            Instant before = staleClock.instant(); // sampled now, and not again: this process misses the step

            server.simulator().advanceTime(LEASE.plusSeconds(1));
            Optional<Lease> lease = claimer.claim(Deadline.none(), "q");
            assertThat(lease).isPresent();
            assertThat(recoverer.recoverExpiredLeases(Deadline.none())).as("requeued at once").isZero();
            assertThat(stale.zscore("conveyor:leases", job.uuid()))
                .as("the expiry is the server's time at the claim plus the lease")
                .isGreaterThan((double) before.plus(LEASE).toEpochMilli());
            claimer.complete(Deadline.none(), lease.get());
            assertThat(stale.sismember("conveyor:done", job.uuid())).isTrue();
        }
    }
}
