package dev.redsim.queue.thoonk;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Prints the jobs/s of a single client's put, get (BRPOP + claim), finish loop on each target. A figure to read,
 * not a timing assertion: it only checks that every job went through.
 */
class ThoonkThroughputTest {
    private static final int WARMUP = 300;
    private static final int JOBS = 2_000;

    @AcrossTargets
    void printsJobsPerSecond(RedisTarget target) {
        String name = "bench-" + UUID.randomUUID();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Job job = new Job(jedis, name, Clock.systemUTC());
            loop(job, WARMUP);
            long start = System.nanoTime();
            loop(job, JOBS);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("thoonk put-claim-finish on %s: %.0f jobs/s (%d jobs, one client)%n",
                target.name(), JOBS / seconds, JOBS);
            assertThat(jedis.hlen(job.keys().items())).isZero();
            jedis.del(job.keys().all());
        }
    }

    private static void loop(Job job, int jobs) {
        for (int i = 0; i < jobs; i++) {
            job.put("payload-" + i);
            Claim claim = job.get(Duration.ofSeconds(1));
            if (!job.finish(claim, null)) {
                throw new AssertionError("could not finish " + claim);
            }
        }
    }
}
