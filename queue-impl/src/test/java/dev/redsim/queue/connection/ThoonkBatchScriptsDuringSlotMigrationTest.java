package dev.redsim.queue.connection;

import dev.redsim.queue.thoonk.Claim;
import dev.redsim.queue.thoonk.FinishedAndClaimed;
import dev.redsim.queue.thoonk.Job;
import dev.redsim.queue.thoonk.ThoonkKeys;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * thoonk's batch scripts on the master of a migrating slot (issue 19, decision 0041), on the simulated and the real
 * 3-master cluster. thoonk's scripts declare every key they touch, so the cluster runs one on the migrating master only
 * when all of them are there; but a key the script itself empties is then missing, and the cluster refuses the
 * script's next access to it wherever that comes, keeping what was written. The batch forms used to run the
 * contract's commands once per job: a getMany whose pops emptied feed.ids was refused at its next pop after claiming
 * ids nobody was told about (held until a claim timeout), and a finishAll whose first finish emptied feed.cancelled
 * was refused at the second job's HDEL after its ZREM from feed.claimed, leaving that job in feed.items only (where
 * maintenance hands it out again: a finished job run twice). Both fail here on the per-job scripts; the batch scripts
 * now read first and write each key once, so they run whole on the migrating master.
 */
class ThoonkBatchScriptsDuringSlotMigrationTest {
    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void aBatchGetThatEmptiesTheIdsRunsWholeOnTheMigratingMaster(String which) {
        try (MigratingSlot slot = MigratingSlot.on(which); JedisCluster client = slot.client()) {
            String feed = "{" + slot.tag() + "}jobs";
            ThoonkKeys keys = new ThoonkKeys(feed);
            try (Jedis owner = RedisConnections.of(client).forKey(keys.slotKey())) {
                Job job = new Job(owner, feed, clock);
                job.put("held");
                assertThat(job.get(Duration.ZERO)).isNotNull(); // feed.claimed exists: the script is let run
                job.put("one");
                job.put("two");
            }

            slot.open();
            List<Claim> claims;
            try (Jedis source = slot.source()) {
                claims = new Job(source, feed, clock).getMany(3, Duration.ZERO);
                assertThat(claims).extracting(Claim::item).containsExactly("one", "two");
                assertThat(source.zcard(keys.claimed())).as("claims").isEqualTo(3);
                assertThat(source.hlen(keys.items())).as("items").isEqualTo(3);
            }
            slot.finish();
            assertThat(client.exists(keys.ids())).as("ids left").isFalse();
            assertThat(client.zcard(keys.claimed())).as("claims after the move").isEqualTo(3);
        }
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void aBatchFinishThatEmptiesTheFailureCountsRunsWholeOnTheMigratingMaster(String which) {
        try (MigratingSlot slot = MigratingSlot.on(which); JedisCluster client = slot.client()) {
            String feed = "{" + slot.tag() + "}jobs";
            ThoonkKeys keys = new ThoonkKeys(feed);
            List<Claim> claims;
            try (Jedis owner = RedisConnections.of(client).forKey(keys.slotKey())) {
                Job job = new Job(owner, feed, clock);
                job.put("zero");
                assertThat(job.finish(job.get(Duration.ZERO), "ok")).isTrue(); // feed.finishes exists
                job.put("one");
                job.put("two");
                assertThat(job.cancel(job.get(Duration.ZERO))).isTrue(); // feed.cancelled holds "one" only
                claims = job.getMany(2, Duration.ZERO);
                assertThat(claims).extracting(Claim::item).containsExactly("two", "one");
            }

            slot.open();
            // every key finish.lua declares is on the migrating master, so the cluster lets it run there
            assertThat(slot.snapshot().keySet()).as("keys of the feed before").contains("source " + keys.claimed(),
                    "source " + keys.cancelled(), "source " + keys.finishes(), "source " + keys.items(),
                    "source " + keys.published());
            try (Jedis source = slot.source()) {
                // "one" first: its finish empties feed.cancelled, then comes "two"
                assertThat(new Job(source, feed, clock).finishAll(List.of(claims.get(1), claims.get(0)), "done"))
                        .containsExactly(true, true);
                assertThat(source.get(keys.finishes())).isEqualTo("3");
            }
            assertThat(slot.snapshot().keySet()).as("every job finished: only the counters left")
                    .containsExactlyInAnyOrder("source " + keys.finishes(), "source " + keys.publishes());
            slot.finish();
            assertThat(client.get(keys.finishes())).isEqualTo("3");
        }
    }
    /**
     * Complete-and-claim-next on the migrating master: finishing the only claim empties feed.claimed, and the next
     * job's claim adds to it. A script running finish's commands then get's would be refused at the next job's ZSCORE
     * of the emptied feed.claimed, after the finish was written (and its pop of feed.ids).
     */
    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void aFinishAndGetThatEmptiesTheClaimsRunsWholeOnTheMigratingMaster(String which) {
        try (MigratingSlot slot = MigratingSlot.on(which); JedisCluster client = slot.client()) {
            String feed = "{" + slot.tag() + "}jobs";
            ThoonkKeys keys = new ThoonkKeys(feed);
            Claim held;
            try (Jedis owner = RedisConnections.of(client).forKey(keys.slotKey())) {
                Job job = new Job(owner, feed, clock);
                job.put("zero");
                assertThat(job.finish(job.get(Duration.ZERO), "ok")).isTrue(); // feed.finishes exists
                job.put("one");
                job.put("two");
                assertThat(job.cancel(job.get(Duration.ZERO))).isTrue(); // feed.cancelled exists: "one" failed once
                held = job.get(Duration.ZERO);
                assertThat(held.item()).isEqualTo("two");
            }

            slot.open();
            try (Jedis source = slot.source()) {
                FinishedAndClaimed next = new Job(source, feed, clock).finishAndGet(List.of(held), "done", 2,
                        Duration.ZERO);
                assertThat(next.finished()).containsExactly(true);
                assertThat(next.claims()).extracting(Claim::item).containsExactly("one");
                assertThat(source.zrange(keys.claimed(), 0, -1)).containsExactly(next.claims().get(0).id());
                assertThat(source.get(keys.finishes())).isEqualTo("2");
            }
            slot.finish();
            assertThat(client.hvals(keys.items())).containsExactly("one");
            assertThat(client.hvals(keys.cancelled())).as("the failure count of the job claimed now")
                    .containsExactly("1");
        }
    }
}
