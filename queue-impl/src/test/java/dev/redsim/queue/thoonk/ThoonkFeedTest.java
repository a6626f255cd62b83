package dev.redsim.queue.thoonk;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.thoonk.ThoonkEvent.Edited;
import dev.redsim.queue.thoonk.ThoonkEvent.FeedConfigured;
import dev.redsim.queue.thoonk.ThoonkEvent.FeedCreated;
import dev.redsim.queue.thoonk.ThoonkEvent.FeedDeleted;
import dev.redsim.queue.thoonk.ThoonkEvent.Positioned;
import dev.redsim.queue.thoonk.ThoonkEvent.Published;
import dev.redsim.queue.thoonk.ThoonkEvent.Retracted;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.Clock;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Feeds, sorted feeds and queues with their events, on both targets. */
class ThoonkFeedTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC);

    private static Jedis connect(RedisTarget target) {
        return new Jedis(target.host(), target.port());
    }

    @AcrossTargets
    void createConfigureDeleteWithEvents(RedisTarget target) throws Exception {
        String name = "feed-" + UUID.randomUUID();
        try (Jedis jedis = connect(target); EventRecorder events = new EventRecorder(target, jedis, List.of(name))) {
            Feeds feeds = new Feeds(jedis, "me");
            assertThat(feeds.create(name)).isTrue();
            assertThat(feeds.create(name)).isFalse();
            feeds.setConfig(name, "max_length", "2");
            assertThat(feeds.getConfig(name, "max_length")).isEqualTo("2");
            new Feed(jedis, name, CLOCK).publish("x", "1");
            assertThat(feeds.delete(name)).isTrue();
            assertThat(feeds.delete(name)).isFalse();
            assertThat(jedis.exists(new ThoonkKeys(name).all())).isZero();
            assertThat(events.upToNow()).containsExactly(new FeedCreated(name, "me"), new FeedConfigured(name, "me"),
                new Published(name, "x", "1"), new FeedDeleted(name, "me"));
        }
    }

    @AcrossTargets
    void feedPublishEditRetractAndMaxLength(RedisTarget target) throws Exception {
        String name = "feed-" + UUID.randomUUID();
        try (Jedis jedis = connect(target); EventRecorder events = new EventRecorder(target, jedis, List.of(name))) {
            new Feeds(jedis).setConfig(name, "max_length", "2");
            Feed feed = new Feed(jedis, name, CLOCK);
            assertThat(feed.publish("a", "1")).isTrue();
            assertThat(feed.publish("b", "2")).isTrue();
            assertThat(feed.publish("b", "2b")).isFalse();
            assertThat(feed.publish("c", "3")).isTrue();
            assertThat(feed.ids()).containsExactlyInAnyOrder("b", "c");
            assertThat(feed.retract("b")).isTrue();
            assertThat(feed.retract("b")).isFalse();
            assertThat(feed.all()).containsOnlyKeys("c");
            assertThat(jedis.zscore(new ThoonkKeys(name).ids(), "c")).isEqualTo(1_700_000_000_123.0);
            assertThat(jedis.get(new ThoonkKeys(name).publishes())).isEqualTo("4");
            List<ThoonkEvent> seen = events.upToNow();
            assertThat(seen).filteredOn(e -> !(e instanceof FeedConfigured)).containsExactly(
                new Published(name, "a", "1"), new Published(name, "b", "2"), new Edited(name, "b", "2b"),
                new Retracted(name, "a"), new Published(name, "c", "3"), new Retracted(name, "b"));
            jedis.del(new ThoonkKeys(name).all());
        }
    }

    @AcrossTargets
    void anEditKeepsAFullFeedFull(RedisTarget target) {
        String name = "feed-" + UUID.randomUUID();
        try (Jedis jedis = connect(target)) {
            new Feeds(jedis).setConfig(name, "max_length", "3");
            long[] now = {1_000};
            Feed feed = new Feed(jedis, name, new TickingClock(now));
            for (String id : List.of("a", "b", "c")) {
                feed.publish(id, id);
            }
            assertThat(feed.publish("a", "a2")).isFalse();
            assertThat(feed.ids()).containsExactly("b", "c", "a");
            assertThat(feed.publish("c", "c2")).isFalse();
            assertThat(feed.ids()).containsExactly("b", "a", "c");
            assertThat(feed.publish("d", "d")).isTrue();
            assertThat(feed.ids()).containsExactly("a", "c", "d");
            jedis.del(new ThoonkKeys(name).all());
        }
    }

    @AcrossTargets
    void sortedFeedPositions(RedisTarget target) throws Exception {
        String name = "sorted-" + UUID.randomUUID();
        try (Jedis jedis = connect(target); EventRecorder events = new EventRecorder(target, jedis, List.of(name))) {
            SortedFeed feed = new SortedFeed(jedis, name);
            String one = feed.append("one");
            String zero = feed.prepend("zero");
            String half = feed.publishAfter(zero, "half");
            String quarter = feed.publishBefore(half, "quarter");
            assertThat(feed.publishBefore("nope", "x")).isNull();
            assertThat(feed.ids()).containsExactly(zero, quarter, half, one);
            assertThat(feed.edit(one, "uno")).isTrue();
            assertThat(feed.edit("nope", "x")).isFalse();
            assertThat(feed.move(one, "begin:")).isTrue();
            assertThat(feed.move(zero, ":end")).isTrue();
            assertThat(feed.move(quarter, half + ":")).isTrue();
            assertThat(feed.move(half, ":nope")).isFalse();
            assertThat(feed.ids()).containsExactly(one, half, quarter, zero);
            assertThat(feed.retract(half)).isTrue();
            assertThat(feed.retract(half)).isFalse();
            assertThat(feed.ids()).containsExactly(one, quarter, zero);
            assertThat(feed.item(one)).isEqualTo("uno");
            assertThat(events.upToNow()).containsExactly(
                new Published(name, one, "one"), new Positioned(name, one, ":end"),
                new Published(name, zero, "zero"), new Positioned(name, zero, "begin:"),
                new Published(name, half, "half"), new Positioned(name, half, zero + ":"),
                new Published(name, quarter, "quarter"), new Positioned(name, quarter, ":" + half),
                new Published(name, one, "uno"), new Positioned(name, one, "begin:"),
                new Positioned(name, zero, ":end"), new Positioned(name, quarter, half + ":"),
                new Retracted(name, half));
            jedis.del(new ThoonkKeys(name).all());
        }
    }

    @AcrossTargets
    void queueIsFifoWithHighPriorityFirst(RedisTarget target) {
        String name = "queue-" + UUID.randomUUID();
        try (Jedis jedis = connect(target)) {
            Queue queue = new Queue(jedis, name);
            queue.put("first");
            queue.put("second");
            queue.putHighPriority("urgent");
            assertThat(queue.ids()).hasSize(3);
            assertThat(queue.get(Duration.ofSeconds(1)).item()).isEqualTo("urgent");
            assertThat(queue.get(Duration.ofSeconds(1)).item()).isEqualTo("first");
            assertThat(queue.get(Duration.ofSeconds(1)).item()).isEqualTo("second");
            assertThat(queue.get(Duration.ofMillis(10))).isNull();
            assertThat(jedis.hlen(new ThoonkKeys(name).items())).isZero();
            assertThat(jedis.get(new ThoonkKeys(name).publishes())).isEqualTo("3");
            jedis.del(new ThoonkKeys(name).all());
        }
    }
}
