package dev.redsim.queue.thoonk;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The retry limit and the stats feed of maintenance, with time from an injected clock. */
class ThoonkMaintenanceTest {
    @AcrossTargets
    void aJobThatKeepsTimingOutStallsAfterTheLimitAndStatsArePublished(RedisTarget target) {
        String name = "jobs-" + UUID.randomUUID();
        long[] now = {1_000_000};
        TickingClock clock = new TickingClock(now);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Job job = new Job(jedis, name, clock);
            JobMaintenance maintenance = new JobMaintenance(jedis, name, clock,
                new MaintenanceSettings(Duration.ofSeconds(30), 2), name + ".stats");
            String id = job.put("flaky");
            for (int attempt = 1; attempt <= 3; attempt++) {
                assertThat(job.get(Duration.ofSeconds(1)).id()).isEqualTo(id);
                now[0] += 30_001;
                MaintenanceReport report = maintenance.pass();
                assertThat(report.cancelled()).isEqualTo(attempt < 3 ? 1 : 0);
                assertThat(report.stalledNow()).isEqualTo(attempt < 3 ? 0 : 1);
            }
            assertThat(jedis.sismember(job.keys().stalled(), id)).isTrue();
            assertThat(job.failures(id)).isZero();
            assertThat(new Feed(jedis, name + ".stats", clock).item("latest")).contains("\"stalledNow\":1");
            assertThat(job.retry(id)).isTrue();
            assertThat(job.get(Duration.ofSeconds(1)).id()).isEqualTo(id);
            jedis.del(job.keys().all());
            jedis.del(new ThoonkKeys(name + ".stats").all());
        }
    }
}
