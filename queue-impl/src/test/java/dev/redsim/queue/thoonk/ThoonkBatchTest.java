package dev.redsim.queue.thoonk;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.script.Transitions;
import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * thoonk's batch forms (putAll, getMany, finishAll, finishAndGet) and the one-job scripts against the contract's WATCH/MULTI
 * forms on both targets: the same calls leave the same keys (ids are random, so each id is named by its item), and
 * publish the same finish events.
 */
class ThoonkBatchTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC);

    /** The contract's keys of the feed, ids replaced by their items. */
    private static Map<String, String> state(Jedis jedis, ThoonkKeys keys) {
        Map<String, String> items = jedis.hgetAll(keys.items());
        java.util.function.Function<String, String> named = id -> items.getOrDefault(id, "?" + id);
        Map<String, String> out = new TreeMap<>();
        out.put("ids", jedis.lrange(keys.ids(), 0, -1).stream().map(named).toList().toString());
        out.put("items", new TreeMap<>(items).values().stream().sorted().toList().toString());
        out.put("claimed", jedis.zrangeWithScores(keys.claimed(), 0, -1).stream()
            .map(t -> named.apply(t.getElement()) + "@" + (long) t.getScore()).sorted().toList().toString());
        out.put("published", jedis.zrangeWithScores(keys.published(), 0, -1).stream()
            .map(t -> named.apply(t.getElement()) + "@" + (long) t.getScore()).sorted().toList().toString());
        out.put("publishes", jedis.get(keys.publishes()));
        out.put("finishes", jedis.get(keys.finishes()));
        out.put("cancelled", String.valueOf(jedis.hlen(keys.cancelled())));
        return out;
    }

    private static Map<String, String> sequence(Jedis jedis, Transitions transitions) {
        String feed = "{batch-" + UUID.randomUUID() + "}";
        Job job = new Job(jedis, feed, CLOCK, transitions);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            items.add("item" + i);
        }
        job.putAll(items);
        job.putAll(List.of("single"));
        List<Claim> claims = job.getMany(4, Duration.ZERO);
        assertThat(claims).extracting(Claim::item).containsExactly("item0", "item1", "item2", "item3");
        assertThat(job.finishAll(claims.subList(0, 3), "done")).containsExactly(true, true, true);
        assertThat(job.finishAll(List.of(claims.get(3)), null)).containsExactly(true);
        assertThat(job.finishAll(List.of(claims.get(3)), null)).as("finished already").containsExactly(false);
        List<Claim> one = job.getMany(1, Duration.ZERO);
        assertThat(one).extracting(Claim::item).containsExactly("item4");
        assertThat(job.cancel(one.get(0))).isTrue();
        List<Claim> two = job.getMany(2, Duration.ZERO);
        assertThat(two).extracting(Claim::item).containsExactly("item5", "single");
        FinishedAndClaimed next = job.finishAndGet(two, "done", 3, Duration.ZERO);
        assertThat(next.finished()).containsExactly(true, true);
        assertThat(next.claims()).extracting(Claim::item).as("the cancelled job, back in line").containsExactly("item4");
        FinishedAndClaimed last = job.finishAndGet(List.of(next.claims().get(0), two.get(0)), null, 1, Duration.ZERO);
        assertThat(last.finished()).as("the second finished already").containsExactly(true, false);
        assertThat(last.claims()).as("nothing waiting").isEmpty();
        Map<String, String> state = state(jedis, job.keys());
        jedis.del(job.keys().all());
        return state;
    }

    @AcrossTargets
    void batchesAndScriptsLeaveWhatTheWatchMultiFormsLeave(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            assertThat(sequence(jedis, Transitions.SCRIPTS)).isEqualTo(sequence(jedis, Transitions.OPTIMISTIC));
        }
    }
}
