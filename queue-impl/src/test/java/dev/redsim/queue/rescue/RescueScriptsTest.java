package dev.redsim.queue.rescue;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.script.Transitions;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scripted transitions against the WATCH/MULTI ones: the same history at the same clock readings leaves every key
 * byte for byte the same (what other clients of the queue observe), label keys outside ASCII included (the index
 * keys count a key's length as Java does), cron ticks and their emissions included; and the batch forms (create
 * many, search many). Both targets.
 */
class RescueScriptsTest {
    private static final String QUEUE = "scripts";

    @AcrossTargets
    void scriptsLeaveTheSameKeysAsTheOptimisticForms(RedisTarget target) {
        Map<String, String> scripted = history(target, Transitions.SCRIPTS);
        Map<String, String> optimistic = history(target, Transitions.OPTIMISTIC);
        assertThat(scripted).isEqualTo(optimistic);
        assertThat(scripted.keySet()).anyMatch(k -> k.contains("idx:meta:2:ké="))
                .anyMatch(k -> k.contains("idx:meta:3:x😀="));
    }

    @AcrossTargets
    void createManyAndSearchManyGiveWhatSingleCallsGive(RedisTarget target) {
        flush(target);
        long[] now = {1_700_000_000_000L};
        InstantSource clock = () -> Instant.ofEpochMilli(now[0]);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            RescueEngine engine = new RescueEngine(jedis, clock, RescueOptions.of(QUEUE, "w"));
            List<Optional<Task>> created = engine.createMany(List.of(task("a"), task("b"),
                    task("c").with(Task.Section.ROOT, Map.of("name", "a")), task("d")));
            assertThat(created).extracting(t -> t.map(Task::object).orElse(null))
                    .containsExactly("1", "2", null, "3");
            List<Task> found = engine.searchMany(10);
            assertThat(found).extracting(t -> t.meta().get("name")).containsExactly("a", "b", "d");
            assertThat(found).allSatisfy(t -> assertThat(t.core()).containsEntry(Labels.WORKER, "w")
                    .containsEntry(Labels.CYCLES, "1").containsEntry(Labels.EXPIRY, "2023-11-14T22:13:50.000000Z"));
            assertThat(engine.searchMany(10)).isEmpty();
        }
    }

    private static Task task(String name) {
        return Task.withMeta(Map.of("name", name));
    }

    private static void flush(RedisTarget target) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
        }
    }

    /**
     * Tasks of every kind through create, search, extend, delete (a gate firing, Sync carried back), expire and ticker
     * (a suppressed emission, an "all" and a "uni" one).
     */
    private static Map<String, String> history(RedisTarget target, Transitions transitions) {
        flush(target);
        long[] now = {1_700_000_000_123L};
        InstantSource clock = () -> Instant.ofEpochMilli(now[0]);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            RescueOptions options = RescueOptions.of(QUEUE, "w1").withLease(Duration.ofSeconds(10))
                    .withTransitions(transitions);
            RescueEngine w1 = new RescueEngine(jedis, clock, options);
            RescueEngine w2 = new RescueEngine(jedis, clock, RescueOptions.of(QUEUE, "w2")
                    .withLease(Duration.ofSeconds(10)).withTransitions(transitions));
            w1.create(Task.withMeta(Map.of("gated", "yes")).with(Task.Section.GATE, Map.of("step", Labels.WAITING))
                    .with(Task.Section.SYNC, Map.of("offset", "0")));
            Task trigger = w1.create(Task.withMeta(Map.of("ké", "v", "x😀", "y"))
                    .with(Task.Section.GATE, Map.of("step", Labels.TRIGGER))).orElseThrow();
            w1.create(Task.withMeta(Map.of("all", "1")).with(Task.Section.NODE, Map.of(Labels.METHOD, Labels.ALL)));
            w1.create(Task.withMeta(Map.of("uni", "1")).with(Task.Section.NODE,
                    Map.of(Labels.METHOD, Labels.UNI, Labels.WORKER, "w2")));
            w1.create(Task.withMeta(Map.of("cron", "1")).with(Task.Section.CRON, Map.of(Labels.EVERY, "5 minutes")));
            w1.create(Task.withMeta(Map.of("plain", "1", "ké", "é", "x😀", "😀")));
            // Cron templates for the ticker at the end: one whose Root the plain task suppresses, one "all" and one
            // "uni" (their emissions start a retention), one carrying Sync.
            w1.create(Task.withMeta(Map.of("rooted", "1")).with(Task.Section.ROOT, Map.of("plain", "1"))
                    .with(Task.Section.CRON, Map.of(Labels.EVERY, "minute")));
            w1.create(Task.withMeta(Map.of("tick-all", "1")).with(Task.Section.NODE, Map.of(Labels.METHOD, Labels.ALL))
                    .with(Task.Section.CRON, Map.of(Labels.EVERY, "minute")));
            w1.create(Task.withMeta(Map.of("tick-uni", "1")).with(Task.Section.NODE,
                    Map.of(Labels.METHOD, Labels.UNI, Labels.WORKER, "w2")).with(Task.Section.SYNC, Map.of("n", "7"))
                    .with(Task.Section.CRON, Map.of(Labels.EVERY, "minute")));
            now[0] += 7;
            Task first = w1.search().orElseThrow(); // the "all" task: delivered, not owned
            assertThat(first.meta()).containsKey("all");
            Task owned = w1.search().orElseThrow();
            assertThat(owned.object()).isEqualTo(trigger.object());
            Task uni = w2.search().orElseThrow();
            assertThat(uni.meta()).containsKey("uni");
            now[0] += 2_000;
            owned = w1.extend(owned);
            now[0] += 1_000;
            w1.delete(owned.with(Task.Section.SYNC, Map.of("offset", "42")));
            now[0] += 60_000; // the uni task's lease has passed
            assertThat(w1.expire()).isEqualTo(1);
            now[0] += 60_000; // 22:15:23: every template's tick has come; the Root of one suppresses its task
            assertThat(w1.ticker()).isEqualTo(3);
            assertThat(w2.ticker()).isZero();
            Map<String, String> keys = new TreeMap<>();
            for (String key : jedis.keys("*")) {
                byte[] k = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                keys.put(key, switch (jedis.type(key)) {
                    case "hash" -> new TreeMap<>(jedis.hgetAll(key)).toString();
                    case "zset" -> jedis.zrangeWithScores(key, 0, -1).toString();
                    case "set" -> new TreeSet<>(jedis.smembers(key)).toString();
                    default -> HexFormat.of().formatHex(jedis.get(k));
                });
            }
            return keys;
        }
    }
}
