package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * used_memory, maxmemory and eviction on a fresh simulator and a fresh redis-server each. The two count bytes
 * differently (the simulator estimates what Redis would allocate: decision 0011), so nothing here compares byte
 * figures between them: limits are set relative to the server's own used_memory, and the assertions are on
 * behaviour both must show (memory follows the data and falls back, eviction gets under the limit and takes the
 * keys the policy names, events and counters follow). Keys meant to look old are written with RESTORE ... IDLETIME,
 * so that no test waits for a clock. Waits are bounded polls of INFO.
 */
class MemoryLimitsTest {
    private static final byte[] KB = filled(1000);

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void usedMemoryFollowsTheDataAndFallsBackWhenItGoes(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target)) {
            long empty = usedMemory(c);
            for (int i = 0; i < 2000; i++) {
                c.call(b("SET"), b("key:" + i), KB);
            }
            long withStrings = usedMemory(c);
            assertThat(withStrings - empty).isGreaterThan(2_000_000); // 2000 values of 1000 bytes, and their keys
            for (int i = 0; i < 2000; i++) { // a value that grows in place counts too
                c.call(b("RPUSH"), b("list"), KB);
            }
            long withList = usedMemory(c);
            assertThat(withList - withStrings).isGreaterThan(2_000_000);
            c.call("DEL", "list");
            assertThat(usedMemory(c)).isLessThan(withStrings + 100_000);
            c.call("FLUSHALL");
            assertThat(usedMemory(c)).isLessThan(empty + 100_000);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void allkeysLruEvictsTheIdleKeysUntilMemoryIsUnderTheLimit(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target)) {
            c.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            byte[] payload = dumpOf(c, KB);
            for (int i = 0; i < 1000; i++) { // untouched for more than a day
                c.call(b("RESTORE"), b("old:" + i), b("0"), payload, b("IDLETIME"), b("100000"));
            }
            for (int i = 0; i < 50; i++) {
                c.call(b("SET"), b("recent:" + i), KB);
            }
            long used = usedMemory(c);
            long limit = used - 300_000;
            assertThat(c.call("CONFIG", "SET", "maxmemory", Long.toString(limit)).text()).isEqualTo("OK");
            // the reply of INFO itself is allocated after the check: a little above the limit is fine
            awaitUsedMemory(c, u -> u <= limit + 32_768);
            // read together: memory moves a little with each command, and may evict one more key in between
            c.call("MULTI");
            c.call("DBSIZE");
            c.call("INFO", "stats");
            List<RespValue> snapshot = c.call("EXEC").children();
            long evicted = Long.parseLong(field(snapshot.get(1).text(), "evicted_keys"));
            assertThat(evicted).isGreaterThan(200); // 300 KB of 1 KB keys
            assertThat(snapshot.get(0).asLong()).isEqualTo(1050 - evicted);
            String[] recent = new String[51];
            recent[0] = "EXISTS";
            for (int i = 0; i < 50; i++) {
                recent[i + 1] = "recent:" + i;
            }
            assertThat(c.call(recent).asLong()).isEqualTo(50); // every recently used key survived
            c.call("CONFIG", "SET", "maxmemory", "0");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void allkeysLfuEvictsTheRarelyUsedKeys(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target)) {
            c.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");
            byte[] payload = dumpOf(c, KB);
            for (int i = 0; i < 1000; i++) {
                c.call(b("RESTORE"), b("cold:" + i), b("0"), payload, b("FREQ"), b("0"));
            }
            for (int i = 0; i < 50; i++) {
                c.call(b("RESTORE"), b("hot:" + i), b("0"), payload, b("FREQ"), b("200"));
            }
            long limit = usedMemory(c) - 300_000;
            c.call("CONFIG", "SET", "maxmemory", Long.toString(limit));
            awaitUsedMemory(c, u -> u <= limit + 32_768);
            assertThat(stat(c, "evicted_keys")).isGreaterThan(200);
            String[] hot = new String[51];
            hot[0] = "EXISTS";
            for (int i = 0; i < 50; i++) {
                hot[i + 1] = "hot:" + i;
            }
            assertThat(c.call(hot).asLong()).isEqualTo(50);
            c.call("CONFIG", "SET", "maxmemory", "0");
        }
    }

    /** Simulator only: Redis's clock cannot be moved, and the decay counts minutes. */
    @org.junit.jupiter.api.Test
    void lfuCountersGrowWithAccessesAndDecayWithTime() {
        try (SimulatorTarget target = new SimulatorTarget(); RespClient c = client(target)) {
            c.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");
            c.call("SET", "k", "v");
            assertThat(c.call("OBJECT", "FREQ", "k").asLong()).isEqualTo(5); // LFU_INIT_VAL
            for (int i = 0; i < 1000; i++) {
                c.call("GET", "k");
            }
            long counted = c.call("OBJECT", "FREQ", "k").asLong();
            // logarithmic: the first access always counts, then each less likely (p = 1 / ((n - 5) * 10 + 1))
            assertThat(counted).isBetween(7L, 30L);
            target.simulator().advanceTime(java.time.Duration.ofMinutes(3)); // lfu-decay-time 1: one a minute
            assertThat(c.call("OBJECT", "FREQ", "k").asLong()).isEqualTo(counted - 3);
            // OBJECT FREQ reads the decay without storing it (LFUDecrAndReturn): without decay, the stored counter
            c.call("CONFIG", "SET", "lfu-decay-time", "0");
            target.simulator().advanceTime(java.time.Duration.ofMinutes(30));
            assertThat(c.call("OBJECT", "FREQ", "k").asLong()).isEqualTo(counted);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void volatilePoliciesEvictOnlyKeysWithATtlAndRefuseWritesWhenNoneIsLeft(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target)) {
            for (String policy : List.of("volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl")) {
                c.call("FLUSHALL");
                c.call("CONFIG", "SET", "maxmemory-policy", policy);
                for (int i = 0; i < 200; i++) {
                    c.call(b("SET"), b("keep:" + i), KB);
                }
                for (int i = 0; i < 100; i++) {
                    c.call(b("SET"), b("ttl:" + i), KB, b("EX"), b("10000"));
                }
                long used = usedMemory(c);
                c.call("CONFIG", "SET", "maxmemory", Long.toString(used - 30_000));
                assertThat(c.call("DBSIZE").asLong()).as(policy).isLessThan(300);
                assertThat(keepers(c)).as(policy).isEqualTo(200);
                // more than every key with a TTL holds: they all go, and the rest stays over the limit
                c.call("CONFIG", "SET", "maxmemory", Long.toString(used - 500_000));
                RespValue refused = c.call("SET", "one", "more");
                assertThat(refused.text()).as(policy)
                        .isEqualTo("OOM command not allowed when used memory > 'maxmemory'.");
                assertThat(c.call("DBSIZE").asLong()).as(policy).isEqualTo(200);
                assertThat(keepers(c)).as(policy).isEqualTo(200);
                assertThat(c.call("GET", "keep:0").data()).isEqualTo(KB); // reads still work
                c.call("CONFIG", "SET", "maxmemory", "0");
            }
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void volatileTtlEvictsTheNearestExpiryFirst(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target)) {
            c.call("CONFIG", "SET", "maxmemory-policy", "volatile-ttl");
            // more samples than keys: every round sees every key, so the order is exact (on Redis too)
            c.call("CONFIG", "SET", "maxmemory-samples", "64");
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                order.add((i * 7) % 30); // written out of TTL order
            }
            byte[] value = filled(10_000); // big against what a client's buffers add and take between commands
            for (int i : order) {
                c.call(b("SET"), b("k:" + i), value, b("EX"), b(Integer.toString(1000 + i * 100)));
            }
            long used = usedMemory(c);
            c.call("CONFIG", "SET", "maxmemory", Long.toString(used - 100_000));
            assertThat(c.call("PING").text()).isEqualTo("PONG");
            // what is gone is the keys of the nearest expiries, in order: checked in that order, a key evicted
            // meanwhile (memory moves a little with each command) keeps the gone ones a prefix
            int gone = 0;
            while (gone < 30 && c.call("EXISTS", "k:" + gone).asLong() == 0) {
                gone++;
            }
            assertThat(gone).isBetween(5, 25);
            for (int i = gone; i < 30; i++) {
                assertThat(c.call("EXISTS", "k:" + i).asLong()).as("k:" + i + " after " + gone + " gone").isEqualTo(1);
            }
            c.call("CONFIG", "SET", "maxmemory", "0");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void evictionIsReportedAsEventsAndTouchesWatchedKeys(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target);
             RespClient subscriber = client(target); RespClient watcher = client(target)) {
            c.call("CONFIG", "SET", "notify-keyspace-events", "Eeg");
            subscriber.call("SUBSCRIBE", "__keyevent@0__:evicted", "__keyevent@0__:del");
            subscriber.read(); // the second subscription's confirmation
            c.call("CONFIG", "SET", "maxmemory-policy", "allkeys-random");
            Set<String> keys = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                c.call(b("SET"), b("k:" + i), KB);
                keys.add("k:" + i);
            }
            watcher.call("WATCH", "k:7");
            c.call("CONFIG", "SET", "maxmemory", "1"); // nothing fits: every key goes
            assertThat(c.call("DBSIZE").asLong()).isZero();
            assertThat(stat(c, "evicted_keys")).isEqualTo(20);
            Set<String> reported = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                List<RespValue> message = subscriber.read().children();
                assertThat(message.get(1).text()).isEqualTo("__keyevent@0__:evicted"); // not a del
                reported.add(message.get(2).text());
            }
            assertThat(reported).isEqualTo(keys);
            assertThat(watcher.call("MULTI").text()).isEqualTo("OK");
            assertThat(watcher.call("EXEC").type()).isIn('*', '_'); // the null array: the watched key changed
            assertThat(watcher.call("PING").text()).isEqualTo("PONG");
            c.call("CONFIG", "SET", "maxmemory", "0");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void theOutputBufferOfAClientThatDoesNotReadCountsUntilItIsFreed(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target); RespClient subscriber = client(target)) {
            c.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 0 0");
            long id = subscriber.call("CLIENT", "ID").asLong();
            subscriber.call("SUBSCRIBE", "firehose");
            long before = usedMemory(c);
            byte[] message = filled(256 * 1024);
            for (int i = 0; i < 64; i++) { // 16 MB: more than the loopback socket buffers take
                c.call(b("PUBLISH"), b("firehose"), message);
            }
            awaitUsedMemory(c, u -> u > before + 4_000_000);
            assertThat(c.call("CLIENT", "KILL", "ID", Long.toString(id)).asLong()).isEqualTo(1);
            awaitUsedMemory(c, u -> u < before + 1_000_000);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void clientEvictionClosesTheBiggestEvictableClientNotANoEvictOne(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target);
             RespClient kept = client(target); RespClient dropped = client(target)) {
            c.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 0 0");
            assertThat(c.call("CLIENT", "NO-EVICT", "on").text()).isEqualTo("OK");
            assertThat(kept.call("CLIENT", "NO-EVICT", "on").text()).isEqualTo("OK");
            kept.call("SUBSCRIBE", "firehose");
            dropped.call("SUBSCRIBE", "firehose");
            c.call("CONFIG", "SET", "maxmemory-clients", "2mb");
            byte[] message = filled(256 * 1024);
            for (int i = 0; i < 64; i++) {
                c.call(b("PUBLISH"), b("firehose"), message);
            }
            awaitStat(c, "evicted_clients", n -> n >= 1);
            drainUntilClosed(dropped);
            assertThat(stat(c, "evicted_clients")).isEqualTo(1);
            assertThat(c.call("PUBSUB", "NUMSUB", "firehose").children().get(1).asLong()).isEqualTo(1);
            c.call("CONFIG", "SET", "maxmemory-clients", "0");
            assertThat(c.call("PING").text()).isEqualTo("PONG");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void memoryStatsNamesRedisFieldsAndFollowsTheData(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target)) {
            c.call("SET", "k", "v");
            c.call("EXPIRE", "k", "100");
            c.call("SELECT", "3");
            c.call("SET", "k", "v");
            List<RespValue> stats = c.call("MEMORY", "STATS").children();
            List<String> names = new ArrayList<>();
            for (int i = 0; i < stats.size(); i += 2) {
                names.add(stats.get(i).text());
            }
            assertThat(names).containsExactly("peak.allocated", "total.allocated", "startup.allocated",
                    "replication.backlog", "clients.slaves", "clients.normal", "cluster.links", "aof.buffer",
                    "lua.caches", "functions.caches", "db.0", "db.3", "overhead.total", "keys.count",
                    "keys.bytes-per-key", "dataset.bytes", "dataset.percentage", "peak.percentage",
                    "allocator.allocated", "allocator.active", "allocator.resident", "allocator-fragmentation.ratio",
                    "allocator-fragmentation.bytes", "allocator-rss.ratio", "allocator-rss.bytes", "rss-overhead.ratio",
                    "rss-overhead.bytes", "fragmentation", "fragmentation.bytes");
            List<RespValue> db0 = stats.get(names.indexOf("db.0") * 2 + 1).children();
            assertThat(db0.get(0).text()).isEqualTo("overhead.hashtable.main");
            assertThat(db0.get(1).asLong()).isEqualTo(72); // one entry, its robj and four buckets: same on both
            assertThat(db0.get(3).asLong()).isEqualTo(56);
            assertThat(stats.get(names.indexOf("keys.count") * 2 + 1).asLong()).isEqualTo(2);
            long total = stats.get(names.indexOf("total.allocated") * 2 + 1).asLong();
            assertThat(Math.abs(total - usedMemory(c))).isLessThan(50_000); // what INFO reports, give or take buffers
        }
    }

    // ---- helpers ----

    /** Reads what the kernel had taken before the server closed the connection, then its end (10 s at most). */
    private static void drainUntilClosed(RespClient client) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!client.closedByServer()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the connection stayed open");
            }
        }
    }

    private static long keepers(RespClient c) {
        String[] args = new String[201];
        args[0] = "EXISTS";
        for (int i = 0; i < 200; i++) {
            args[i + 1] = "keep:" + i;
        }
        return c.call(args).asLong();
    }

    /** The RDB serialization of a string value, from the server itself (so RESTORE takes it on either target). */
    private static byte[] dumpOf(RespClient c, byte[] value) {
        c.call(b("SET"), b("dump:source"), value);
        byte[] payload = c.call("DUMP", "dump:source").data();
        c.call("DEL", "dump:source");
        return payload;
    }

    private static long usedMemory(RespClient c) {
        return Long.parseLong(infoField(c, "memory", "used_memory"));
    }

    private static long stat(RespClient c, String field) {
        return Long.parseLong(infoField(c, "stats", field));
    }

    private static void awaitUsedMemory(RespClient c, LongPredicate condition) {
        awaitInfo(c, "memory", "used_memory", condition);
    }

    private static void awaitStat(RespClient c, String field, LongPredicate condition) {
        awaitInfo(c, "stats", field, condition);
    }

    /** Polls an INFO field until it satisfies the condition, for at most 10 seconds. */
    private static void awaitInfo(RespClient c, String section, String field, LongPredicate condition) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long last;
        do {
            last = Long.parseLong(infoField(c, section, field));
            if (condition.test(last)) {
                return;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() < deadline);
        throw new AssertionError(field + " stayed at " + last);
    }

    private static String infoField(RespClient c, String section, String field) {
        return field(c.call("INFO", section).text(), field);
    }

    private static String field(String info, String field) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        throw new AssertionError("no " + field + " in INFO");
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] filled(int size) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, (byte) 'x');
        return bytes;
    }
}
