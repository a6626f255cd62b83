package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.Jedis;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Finished records are kept by age, not by count: at a high rate a count cap dropped a job's record seconds after
 * it finished, before its pusher could look at it. Every record stays until finish + retention (configurable),
 * however many jobs finish meanwhile, and is gone after it.
 */
class JqFinishedRetentionTest {
    private static final long START = 1_700_000_000_000L;

    @AcrossTargets
    void finishedRecordsLiveForTheirRetentionWhateverTheirNumber(RedisTarget target) {
        ManualClock clock = new ManualClock(START);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            jedis.flushAll();
            JqOptions options = JqOptions.defaults();
            JobQueue queue = new JobQueue(jedis, JqKeys.standard(), clock, options);
            JobRequest job = new JobRequest("fast", Msgpack.encode(ValueFactory.newString("x")), 0, 0, false, 30_000);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 1_100; i++) {
                ids.add(queue.enqueue(job));
                Assignment a = queue.claim("w").orElseThrow();
                queue.report(a.id(), a.attempt(), new Outcome.Success(Msgpack.encode(
                        Msgpack.map("type", "success", "finished_at", "2023-11-14T22:13:20Z", "result", "ok"))));
            }
            queue.sweep();
            assertThat(ids).as("every record right after the finish").allMatch(id -> queue.job(id).isPresent());
            clock.advance(options.finishedRetention().toMillis() - 1);
            queue.sweep();
            assertThat(ids).as("every record until the end of retention").allMatch(id -> queue.job(id).isPresent());
            clock.advance(1);
            queue.sweep();
            assertThat(ids).as("no record after retention").noneMatch(id -> queue.job(id).isPresent());
            assertThat(queue.places().get(JobState.SUCCEEDED)).isEmpty();
        }
    }
}
