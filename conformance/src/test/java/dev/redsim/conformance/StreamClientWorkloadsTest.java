package dev.redsim.conformance;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import io.lettuce.core.Consumer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessages;
import org.redisson.Redisson;
import org.redisson.api.AutoClaimResult;
import org.redisson.api.PendingEntry;
import org.redisson.api.PendingResult;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.StreamGroup;
import org.redisson.api.StreamInfo;
import org.redisson.api.StreamMessageId;
import org.redisson.api.stream.StreamAddArgs;
import org.redisson.api.stream.StreamCreateGroupArgs;
import org.redisson.api.stream.StreamReadGroupArgs;
import org.redisson.api.stream.StreamTrimArgs;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAutoClaimParams;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.resps.StreamPendingSummary;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stream workloads as applications write them, through client libraries, on the simulator and on redis-server:
 * consumer-group workers on Jedis and on Lettuce (RESP3) that block in XREADGROUP, acknowledge, and take over a dead
 * consumer's entries with XAUTOCLAIM; Redisson's RStream; and the Lua event log of job-queue libraries (XADD with
 * MAXLEN ~ from a script and from a function, XREVRANGE for the last event).
 */
class StreamClientWorkloadsTest {
    private static final int JOBS = 60;
    /** Entries the dead consumer reads and never acknowledges. */
    private static final int ABANDONED = 5;
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    // ---- Jedis ----

    @AcrossTargets
    void jedisWorkersShareTheJobsAndTakeOverWhatADeadConsumerLeft(RedisTarget target) throws Exception {
        Map<String, Integer> done = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (Jedis admin = new Jedis(target.host(), target.port())) {
            admin.flushAll();
            admin.xgroupCreate("jobs", "workers", StreamEntryID.XGROUP_LAST_ENTRY, true);
            for (int job = 0; job < ABANDONED; job++) {
                admin.xadd("jobs", StreamEntryID.NEW_ENTRY, Map.of("job", Integer.toString(job)));
            }
            List<Map.Entry<String, List<StreamEntry>>> dead = admin.xreadGroup("workers", "dead",
                    XReadGroupParams.xReadGroupParams().count(ABANDONED), Map.of("jobs", StreamEntryID.UNRECEIVED_ENTRY));
            assertThat(dead.get(0).getValue()).hasSize(ABANDONED);

            List<Thread> workers = new ArrayList<>();
            for (String name : List.of("w1", "w2")) {
                workers.add(started(() -> jedisWorker(target, name, done, stop)));
            }
            for (int job = ABANDONED; job < JOBS; job++) {
                admin.xadd("jobs", StreamEntryID.NEW_ENTRY, Map.of("job", Integer.toString(job)));
            }
            awaitDone(done, JOBS - ABANDONED);

            StreamPendingSummary pending = admin.xpending("jobs", "workers");
            assertThat(pending.getTotal()).isEqualTo(ABANDONED);
            assertThat(pending.getConsumerMessageCount()).isEqualTo(Map.of("dead", (long) ABANDONED));

            Map.Entry<StreamEntryID, List<StreamEntry>> claimed = admin.xautoclaim("jobs", "workers", "w1", 0,
                    new StreamEntryID(0, 0), XAutoClaimParams.xAutoClaimParams().count(100));
            assertThat(claimed.getKey()).isEqualTo(new StreamEntryID(0, 0));
            for (StreamEntry entry : claimed.getValue()) {
                done.merge(entry.getFields().get("job"), 1, Integer::sum);
                admin.xack("jobs", "workers", entry.getID());
            }
            stop.set(true);
            for (Thread worker : workers) {
                worker.join(PATIENCE.toMillis());
            }
            assertThat(admin.xpending("jobs", "workers").getTotal()).isZero();
            StreamGroupInfo group = admin.xinfoGroups("jobs").get(0);
            assertThat(group.getPending()).isZero();
            assertThat(group.getGroupInfo().get("entries-read")).isEqualTo((long) JOBS);
            assertThat(group.getGroupInfo().get("lag")).isEqualTo(0L);
        }
        assertEachJobDoneOnce(done);
    }

    private static void jedisWorker(RedisTarget target, String name, Map<String, Integer> done, AtomicBoolean stop) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            while (!stop.get()) {
                List<Map.Entry<String, List<StreamEntry>>> read = jedis.xreadGroup("workers", name,
                        XReadGroupParams.xReadGroupParams().count(5).block(200),
                        Map.of("jobs", StreamEntryID.UNRECEIVED_ENTRY));
                if (read == null) {
                    continue;
                }
                for (StreamEntry entry : read.get(0).getValue()) {
                    // acknowledged first: the test reads XPENDING as soon as every job counts as done
                    jedis.xack("jobs", "workers", entry.getID());
                    done.merge(entry.getFields().get("job"), 1, Integer::sum);
                }
            }
        }
    }

    // ---- Lettuce ----

    @AcrossTargets
    void lettuceWorkersShareTheJobsAndTakeOverWhatADeadConsumerLeft(RedisTarget target) throws Exception {
        Map<String, Integer> done = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        RedisClient client = RedisClient.create(RedisURI.create(target.host(), target.port()));
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> admin = connection.sync();
            admin.flushall();
            admin.xgroupCreate(XReadArgs.StreamOffset.from("jobs", "$"), "workers", XGroupCreateArgs.Builder.mkstream());
            for (int job = 0; job < ABANDONED; job++) {
                admin.xadd("jobs", Map.of("job", Integer.toString(job)));
            }
            List<StreamMessage<String, String>> dead = admin.xreadgroup(Consumer.from("workers", "dead"),
                    XReadArgs.Builder.count(ABANDONED), XReadArgs.StreamOffset.lastConsumed("jobs"));
            assertThat(dead).hasSize(ABANDONED);

            List<Thread> workers = new ArrayList<>();
            for (String name : List.of("w1", "w2")) {
                workers.add(started(() -> lettuceWorker(client, name, done, stop)));
            }
            for (int job = ABANDONED; job < JOBS; job++) {
                admin.xadd("jobs", Map.of("job", Integer.toString(job)));
            }
            awaitDone(done, JOBS - ABANDONED);

            PendingMessages pending = admin.xpending("jobs", "workers");
            assertThat(pending.getCount()).isEqualTo(ABANDONED);
            assertThat(pending.getConsumerMessageCount()).isEqualTo(Map.of("dead", (long) ABANDONED));

            ClaimedMessages<String, String> claimed = admin.xautoclaim("jobs", new XAutoClaimArgs<String>()
                    .consumer(Consumer.from("workers", "w2")).minIdleTime(0).startId("0-0").count(100));
            assertThat(claimed.getId()).isEqualTo("0-0");
            for (StreamMessage<String, String> message : claimed.getMessages()) {
                done.merge(message.getBody().get("job"), 1, Integer::sum);
                admin.xack("jobs", "workers", message.getId());
            }
            stop.set(true);
            for (Thread worker : workers) {
                worker.join(PATIENCE.toMillis());
            }
            assertThat(admin.xpending("jobs", "workers").getCount()).isZero();
            assertThat(admin.xlen("jobs")).isEqualTo(JOBS);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(5));
        }
        assertEachJobDoneOnce(done);
    }

    private static void lettuceWorker(RedisClient client, String name, Map<String, Integer> done, AtomicBoolean stop) {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            while (!stop.get()) {
                List<StreamMessage<String, String>> read = redis.xreadgroup(Consumer.from("workers", name),
                        XReadArgs.Builder.count(5).block(200), XReadArgs.StreamOffset.lastConsumed("jobs"));
                for (StreamMessage<String, String> message : read) {
                    redis.xack("jobs", "workers", message.getId()); // before it counts as done, as above
                    done.merge(message.getBody().get("job"), 1, Integer::sum);
                }
            }
        }
    }

    // ---- Redisson ----

    @AcrossTargets
    void redissonStreamGroupReadsAcknowledgesClaimsAndTrims(RedisTarget target) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + target.host() + ":" + target.port())
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(4).setTimeout(10_000).setRetryAttempts(0);
        RedissonClient redisson = Redisson.create(config);
        try {
            redisson.getKeys().flushall();
            RStream<String, String> stream = redisson.getStream("events", StringCodec.INSTANCE);
            stream.createGroup(StreamCreateGroupArgs.name("readers").makeStream());
            List<StreamMessageId> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ids.add(stream.add(StreamAddArgs.entry("n", Integer.toString(i))));
            }
            assertThat(stream.size()).isEqualTo(20);

            Map<StreamMessageId, Map<String, String>> first = stream.readGroup("readers", "alice",
                    StreamReadGroupArgs.neverDelivered().count(8));
            assertThat(first.keySet()).containsExactlyElementsOf(ids.subList(0, 8));
            Map<StreamMessageId, Map<String, String>> second = stream.readGroup("readers", "bob",
                    StreamReadGroupArgs.neverDelivered().count(100).timeout(Duration.ofMillis(100)));
            assertThat(second).hasSize(12);
            assertThat(stream.ack("readers", ids.subList(8, 20).toArray(new StreamMessageId[0]))).isEqualTo(12);

            PendingResult pending = stream.getPendingInfo("readers");
            assertThat(pending.getTotal()).isEqualTo(8);
            assertThat(pending.getConsumerNames()).isEqualTo(Map.of("alice", 8L));
            List<PendingEntry> entries = stream.listPending("readers", StreamMessageId.MIN, StreamMessageId.MAX, 100);
            assertThat(entries).hasSize(8);
            assertThat(entries.get(0).getConsumerName()).isEqualTo("alice");
            assertThat(entries.get(0).getLastTimeDelivered()).isEqualTo(1);

            AutoClaimResult<String, String> claimed = stream.autoClaim("readers", "carol", 0, TimeUnit.MILLISECONDS,
                    StreamMessageId.MIN, 5);
            assertThat(claimed.getMessages()).hasSize(5);
            assertThat(claimed.getNextId()).isEqualTo(ids.get(5));
            assertThat(stream.getPendingInfo("readers").getConsumerNames()).isEqualTo(Map.of("alice", 3L, "carol", 5L));

            // a reader blocked on the group is served by a later add
            Thread adder = started(() -> {
                awaitBlockedClient(target); // the server says bob is blocked: no guess at how long that takes
                stream.add(StreamAddArgs.entry("n", "late"));
            });
            Map<StreamMessageId, Map<String, String>> late = stream.readGroup("readers", "bob",
                    StreamReadGroupArgs.neverDelivered().timeout(Duration.ofSeconds(10)));
            adder.join();
            assertThat(late.values()).containsExactly(Map.of("n", "late"));

            StreamInfo<String, String> info = stream.getInfo();
            assertThat(info.getLength()).isEqualTo(21);
            assertThat(info.getGroups()).isEqualTo(1);
            assertThat(info.getFirstEntry().getData()).isEqualTo(Map.of("n", "0"));
            List<StreamGroup> groups = stream.listGroups();
            assertThat(groups.get(0).getName()).isEqualTo("readers");
            assertThat(groups.get(0).getPending()).isEqualTo(9);
            assertThat(stream.listConsumers("readers")).extracting(c -> c.getName())
                    .containsExactly("alice", "bob", "carol");

            assertThat(stream.trim(StreamTrimArgs.maxLen(10).noLimit())).isEqualTo(11);
            assertThat(stream.range(StreamMessageId.MIN, StreamMessageId.MAX)).hasSize(10);
            assertThat(stream.remove(ids.get(19))).isEqualTo(1);
            assertThat(stream.size()).isEqualTo(9);
        } finally {
            redisson.shutdown(0, 5, TimeUnit.SECONDS);
        }
    }

    // ---- Lua: the event log of job-queue libraries ----

    /** As queue libraries record job events: XADD with MAXLEN ~ from the script, then the last event back. */
    private static final String RECORD_EVENT = "local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', "
            + "'event', ARGV[2], 'jobId', ARGV[3]) "
            + "local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1) "
            + "return {id, last[1][1], last[1][2][4]}";

    @AcrossTargets
    void aLuaEventLogKeepsAboutMaxlenEventsAndReadsTheLastBack(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            jedis.flushAll();
            String sha = jedis.scriptLoad(RECORD_EVENT);
            String previous = "0-0";
            for (int job = 0; job < 1000; job++) {
                @SuppressWarnings("unchecked")
                List<Object> reply = (List<Object>) jedis.evalsha(sha, List.of("queue:events"),
                        List.of("100", job % 2 == 0 ? "completed" : "failed", Integer.toString(job)));
                String id = (String) reply.get(0);
                assertThat(reply.get(1)).as("the last event is the one just added").isEqualTo(id);
                assertThat(reply.get(2)).isEqualTo(Integer.toString(job));
                assertThat(new StreamEntryID(id)).isGreaterThan(new StreamEntryID(previous));
                previous = id;
            }
            // MAXLEN ~ trims whole nodes of 100 entries only: between 100 and 199 events stay, here exactly 100
            assertThat(jedis.xlen("queue:events")).isEqualTo(100);
            assertThat(jedis.xinfoStream("queue:events").getStreamInfo().get("entries-added")).isEqualTo(1000L);
            List<StreamEntry> oldest = jedis.xrange("queue:events", "-", "+", 1);
            assertThat(oldest.get(0).getFields()).isEqualTo(Map.of("event", "completed", "jobId", "900"));

            jedis.functionLoad("#!lua name=eventlog\n"
                    + "redis.register_function('record_event', function(keys, args)\n"
                    + "  redis.call('XADD', keys[1], 'MAXLEN', '~', args[1], '*', 'event', args[2])\n"
                    + "  return redis.call('XLEN', keys[1])\n"
                    + "end)");
            long length = 0;
            for (int i = 0; i < 250; i++) {
                length = (Long) jedis.fcall("record_event", List.of("fn:events"), List.of("50", "e" + i));
            }
            assertThat(length).as("two nodes of 100 went, the third holds 50").isEqualTo(50);
            jedis.functionDelete("eventlog");
        }
    }

    // ---- helpers ----

    private static void awaitDone(Map<String, Integer> done, int count) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (done.size() < count && System.nanoTime() < deadline) {
            Thread.yield(); // other threads are doing the work: give them the core
        }
        assertThat(done).hasSize(count);
    }

    private static void assertEachJobDoneOnce(Map<String, Integer> done) {
        assertThat(done).hasSize(JOBS);
        assertThat(done.values()).containsOnly(1);
    }

    private static Thread started(Runnable body) {
        Thread thread = new Thread(body);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Asks the server until it reports a blocked client (INFO clients), within the patience. */
    private static void awaitBlockedClient(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (!jedis.info("clients").contains("\r\nblocked_clients:1") && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        }
    }
}
