package dev.redsim.queue.thoonk;

import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Simulator only: the job queue on the simulator's own clock. Claim times, maintenance timeouts and the BRPOP
 * timeout all follow advanceTime, so a 30 s claim timeout and a 5 s get timeout take no wall time.
 */
class ThoonkSimulatorClockTest {
    @Test
    void claimTimeoutAndGetTimeoutFollowTheSimulatorsClock() throws Exception {
        try (SimulatorTarget target = new SimulatorTarget();
             Jedis jedis = new Jedis(target.host(), target.port());
             Jedis blocking = new Jedis(target.host(), target.port())) {
            RedisSimulator simulator = target.simulator();
            simulator.freezeTime();
            Clock clock = new SimulatorClock(simulator);
            Job job = new Job(jedis, "jobs", clock);
            JobMaintenance maintenance = new JobMaintenance(jedis, "jobs", clock,
                new MaintenanceSettings(Duration.ofSeconds(30), 3), null);

            String id = job.put("work");
            Claim claim = job.get(Duration.ofSeconds(1));
            assertThat(claim.claimedAt()).isEqualTo(simulator.currentTimeMillis());
            simulator.advanceTime(Duration.ofSeconds(30));
            assertThat(maintenance.pass().cancelled()).isZero();
            simulator.advanceTime(Duration.ofMillis(1));
            assertThat(maintenance.pass().cancelled()).isEqualTo(1);
            assertThat(job.failures(id)).isEqualTo(1);
            assertThat(job.finish(claim, "late")).isFalse();

            Job waiting = new Job(blocking, "idle", clock);
            CompletableFuture<Claim> got = CompletableFuture.supplyAsync(() -> waiting.get(Duration.ofSeconds(5)));
            while (!jedis.info("clients").contains("blocked_clients:1")) {
                Thread.onSpinWait();
            }
            simulator.advanceTime(Duration.ofSeconds(5));
            assertThat(got.get(10, TimeUnit.SECONDS)).isNull();
        }
    }

    /** java.time.Clock over the simulator's time, so the client and the server agree on "now". */
    private static final class SimulatorClock extends Clock {
        private final RedisSimulator simulator;

        SimulatorClock(RedisSimulator simulator) {
            this.simulator = simulator;
        }

        @Override
        public long millis() {
            return simulator.currentTimeMillis();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
