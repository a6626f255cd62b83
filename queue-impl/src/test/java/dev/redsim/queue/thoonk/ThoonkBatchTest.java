package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.ManualClock;
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
        out.put("stalled", jedis.smembers(keys.stalled()).stream().map(named).sorted().toList().toString());
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

    /**
     * Maintenance's requeue of ids lost between BRPOP and claim (requeue.lua against the WATCH/MULTI loop), among the
     * other cases a pass meets: an id lost, one lost later, one lost and then claimed by its slow worker, one lost and
     * retracted, a claim timing out, a stalled job. Each lost id goes missing in its own pass, so each pass requeues at
     * most one (the order of several requeued by one pass is the order of a hash set of random ids). The keys after
     * every pass, and the passes' reports, must be the same in both forms.
     */
    private static List<String> maintenanceSequence(Jedis jedis, Transitions transitions) {
        String feed = "{maintenance-" + UUID.randomUUID() + "}";
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        Job job = new Job(jedis, feed, clock, transitions);
        JobMaintenance maintenance = new JobMaintenance(jedis, feed, clock, new MaintenanceSettings(
            Duration.ofSeconds(30), 1), null, new java.util.HashMap<>(), transitions);
        List<String> trace = new ArrayList<>();
        java.util.function.Consumer<String> pass = step -> {
            MaintenanceReport report = maintenance.pass();
            trace.add(step + " " + report + " " + state(jedis, job.keys()));
        };
        for (String item : List.of("lost", "later", "slow", "retracted", "timed-out", "stalled")) {
            job.put(item);
            clock.advance(1);
        }
        String lost = jedis.rpop(job.keys().ids()); // a worker's BRPOP, then the worker died
        pass.accept("first sight of lost");
        clock.advance(10_000);
        String later = jedis.rpop(job.keys().ids());
        String slow = jedis.rpop(job.keys().ids()); // its worker is slow, not dead: it claims the id later
        String retracted = jedis.rpop(job.keys().ids());
        Claim timedOut = job.get(Duration.ZERO);
        Claim stalled = job.get(Duration.ZERO);
        assertThat(job.cancel(stalled)).isTrue();
        stalled = job.get(Duration.ZERO);
        assertThat(List.of(timedOut.item(), stalled.item())).containsExactly("timed-out", "stalled");
        pass.accept("first sight of later, slow and retracted");
        clock.advance(20_001);
        pass.accept("lost is due");
        assertThat(job.claimPopped(slow)).as("the slow worker's claim").isNotNull();
        assertThat(job.retract(retracted)).isTrue();
        clock.advance(10_000);
        pass.accept("later is due, slow was claimed, retracted is gone, the claims time out");
        clock.advance(30_001);
        pass.accept("slow's claim times out");
        assertThat(job.requeueLost(List.of(lost, later, slow, retracted, "no-such-id")))
            .as("each id is accounted for now, or gone").containsOnly(false);
        assertThat(trace.get(2)).as("lost is requeued").contains("requeued=1");
        assertThat(trace.get(3)).as("later is requeued").contains("requeued=1, cancelled=1, stalledNow=1");
        assertThat(trace.get(4)).contains("requeued=0, cancelled=1");
        trace.add(state(jedis, job.keys()).toString());
        jedis.del(job.keys().all());
        return trace;
    }

    @AcrossTargets
    void maintenancesRequeueScriptLeavesWhatItsWatchMultiFormLeaves(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            assertThat(maintenanceSequence(jedis, Transitions.SCRIPTS))
                .containsExactlyElementsOf(maintenanceSequence(jedis, Transitions.OPTIMISTIC));
        }
    }

    @AcrossTargets
    void batchesAndScriptsLeaveWhatTheWatchMultiFormsLeave(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            assertThat(sequence(jedis, Transitions.SCRIPTS)).isEqualTo(sequence(jedis, Transitions.OPTIMISTIC));
        }
    }
}
