package dev.redsim.queue.thoonk;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract's unfenced forms (finish / cancel / stall by id, for other thoonk implementations sharing the
 * Redis), and the bound on the optimistic retry loop.
 */
class ThoonkUnfencedFormsTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);

    @AcrossTargets
    void unfencedFinishCancelAndStallActOnWhoeverClaimedTheJob(RedisTarget target) throws Exception {
        String feed = "unfenced-" + UUID.randomUUID();
        try (Jedis jedis = new Jedis(target.host(), target.port());
             EventRecorder events = new EventRecorder(target, jedis, List.of(feed))) {
            Job job = new Job(jedis, feed, CLOCK);
            ThoonkKeys keys = job.keys();
            String a = job.put("a");
            String b = job.put("b");
            String c = job.put("c");
            assertThat(job.finish(a, "early")).as("finish of an unclaimed job").isFalse();
            assertThat(job.cancel(a)).as("cancel of an unclaimed job").isFalse();
            assertThat(job.stall(a)).as("stall of an unclaimed job").isFalse();

            assertThat(job.get(Duration.ofSeconds(1)).id()).isEqualTo(a);
            assertThat(job.cancel(a)).isTrue();
            assertThat(job.failures(a)).isEqualTo(1);
            assertThat(jedis.lrange(keys.ids(), 0, -1)).containsExactly(a, c, b);

            assertThat(job.get(Duration.ofSeconds(1)).id()).isEqualTo(b);
            assertThat(job.stall(b)).isTrue();
            assertThat(jedis.smembers(keys.stalled())).containsExactly(b);
            assertThat(job.stall(b)).as("a second stall").isFalse();

            assertThat(job.get(Duration.ofSeconds(1)).id()).isEqualTo(c);
            assertThat(job.finish(c, "result-c")).isTrue();
            assertThat(job.finish(c, "again")).as("a second finish").isFalse();
            assertThat(jedis.hexists(keys.items(), c)).isFalse();
            assertThat(jedis.zscore(keys.claimed(), c)).isNull();
            assertThat(jedis.get(keys.finishes())).isEqualTo("1");
            assertThat(events.upToNow()).containsExactly(new ThoonkEvent.JobFinished(feed, c, "result-c"));
            jedis.del(keys.all());
        }
    }

    /**
     * Another client touches the watched key before every EXEC, so every attempt conflicts: the operation must give
     * up with {@link ThoonkConflictException} after a bounded number of attempts instead of looping for ever. (The
     * listener stops the loop itself after 10,000 EXECs, so the old unbounded loop fails instead of hanging.) The
     * WATCH/MULTI form (Transitions.OPTIMISTIC): a scripted transition has no loop to bound.
     */
    @AcrossTargets
    void theOptimisticLoopGivesUpAfterBoundedConflicts(RedisTarget target) {
        String feed = "conflict-" + UUID.randomUUID();
        ThoonkKeys keys = new ThoonkKeys(feed);
        AtomicInteger execs = new AtomicInteger();
        try (Jedis other = new Jedis(target.host(), target.port())) {
            ListenedConnection connection = new ListenedConnection(new HostAndPort(target.host(), target.port()),
                (sent, command) -> {
                    if (command.equalsIgnoreCase("EXEC")) {
                        if (execs.incrementAndGet() > 10_000) {
                            throw new IllegalStateException("unbounded: 10,000 conflicting attempts");
                        }
                        // A new score every time: a ZADD that changes nothing does not touch the key for WATCH.
                        other.zadd(keys.claimed(), System.nanoTime(), "someone-else");
                    }
                });
            try (Jedis jedis = new Jedis(connection)) {
                Job job = new Job(jedis, feed, CLOCK, dev.redsim.queue.script.Transitions.OPTIMISTIC);
                String id = job.put("x");
                execs.set(0);
                jedis.zadd(keys.claimed(), 1, id);
                assertThatThrownBy(() -> job.finish(id, "r")).isInstanceOf(ThoonkConflictException.class);
                assertThat(execs.get()).isLessThanOrEqualTo(Watched.MAX_ATTEMPTS);
                assertThat(jedis.hexists(keys.items(), id)).as("nothing was written").isTrue();
            } finally {
                other.del(keys.all());
            }
        }
    }
}
