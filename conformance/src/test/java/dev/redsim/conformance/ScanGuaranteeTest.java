package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scan family's guarantees, on a fresh simulator and a fresh redis-server each: a full iteration with a small
 * COUNT returns every element present from start to end, however many are added and removed in between (so the
 * table grows and shrinks under the scan); and the cursor is what Redis's is, a bucket index of the dict, so one
 * call visits a few buckets instead of ordering the whole collection. (Cursor values themselves differ between two
 * Redis processes, whose hash seeds differ, so they are checked by their range, not compared.)
 */
class ScanGuaranteeTest {

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void fullScanReturnsEveryKeyPresentThroughout(String name) {
        try (RedisTarget target = start(name); RespClient client = client(target)) {
            Set<String> stable = new HashSet<>();
            for (int i = 0; i < 500; i++) {
                String key = "stable:" + i;
                client.call("SET", key, "v");
                stable.add(key);
            }
            Random random = new Random(42);
            Set<String> seen = new HashSet<>();
            String cursor = "0";
            int calls = 0;
            int churn = 0;
            do {
                RespValue reply = client.call("SCAN", cursor, "COUNT", "7");
                cursor = reply.children().get(0).text();
                for (RespValue key : reply.children().get(1).children()) {
                    seen.add(key.text());
                }
                // Churn between calls: new keys arrive (the table doubles twice), short-lived keys go.
                for (int j = 0; j < 20; j++) {
                    client.call("SET", "churn:" + churn, "v");
                    client.call("DEL", "churn:" + random.nextInt(churn + 1));
                    churn++;
                }
                calls++;
                assertThat(calls).as("the scan ends").isLessThan(10_000);
            } while (!cursor.equals("0"));
            assertThat(seen).containsAll(stable);
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void interleavedScansEachSeeEveryStableKey(String name) {
        try (RedisTarget target = start(name); RespClient first = client(target); RespClient second = client(target)) {
            for (int i = 0; i < 200; i++) {
                first.call("SET", "early:" + i, "v");
            }
            Set<String> seenByFirst = new HashSet<>();
            Set<String> seenBySecond = new HashSet<>();
            String firstCursor = "0";
            String secondCursor = null;
            int step = 0;
            do {
                firstCursor = scanStep(first, firstCursor, seenByFirst);
                if (step == 10) {
                    // A later scan starts while the first is under way, after more keys arrived.
                    for (int i = 0; i < 100; i++) {
                        second.call("SET", "late:" + i, "v");
                    }
                    secondCursor = "0";
                }
                if (secondCursor != null && !(secondCursor.equals("0") && step > 10)) {
                    secondCursor = scanStep(second, secondCursor, seenBySecond);
                }
                step++;
            } while (!firstCursor.equals("0"));
            while (!secondCursor.equals("0")) {
                secondCursor = scanStep(second, secondCursor, seenBySecond);
            }
            for (int i = 0; i < 200; i++) {
                assertThat(seenByFirst).contains("early:" + i);
                assertThat(seenBySecond).contains("early:" + i);
            }
            for (int i = 0; i < 100; i++) {
                assertThat(seenBySecond).contains("late:" + i);
            }
        }
    }

    private static String scanStep(RespClient client, String cursor, Set<String> seen) {
        RespValue reply = client.call("SCAN", cursor, "COUNT", "3");
        reply.children().get(1).children().forEach(k -> seen.add(k.text()));
        return reply.children().get(0).text();
    }

    /** SSCAN, HSCAN and ZSCAN of hashtable / skiplist encodings, with members coming and going between calls. */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void fullScansOfBigCollectionsReturnEveryStableMember(String name) {
        try (RedisTarget target = start(name); RespClient client = client(target)) {
            for (int i = 0; i < 300; i++) {
                client.call("SADD", "s", "m" + i);
                client.call("HSET", "h", "m" + i, "v");
                client.call("ZADD", "z", Integer.toString(i), "m" + i);
            }
            List<List<String>> adds = List.of(List.of("SADD", "s"), List.of("HSET", "h"), List.of("ZADD", "z"));
            List<List<String>> removes = List.of(List.of("SREM", "s"), List.of("HDEL", "h"), List.of("ZREM", "z"));
            List<String> scans = List.of("SSCAN", "HSCAN", "ZSCAN");
            List<String> keys = List.of("s", "h", "z");
            for (int t = 0; t < 3; t++) {
                Set<String> seen = new HashSet<>();
                String cursor = "0";
                int added = 0;
                boolean pairs = t > 0; // HSCAN and ZSCAN reply member, value, member, value...
                do {
                    RespValue reply = client.call(scans.get(t), keys.get(t), cursor, "COUNT", "5");
                    cursor = reply.children().get(0).text();
                    List<RespValue> items = reply.children().get(1).children();
                    for (int i = 0; i < items.size(); i += pairs ? 2 : 1) {
                        seen.add(items.get(i).text());
                    }
                    // between calls, many members arrive (the table grows) and a few of the first ones go
                    for (int j = 0; j < 20; j++) {
                        List<String> add = new ArrayList<>(adds.get(t));
                        if (t == 2) {
                            add.add("0");
                        }
                        add.add("new" + added++);
                        if (t == 1) {
                            add.add("v");
                        }
                        client.call(add.toArray(String[]::new));
                    }
                    List<String> remove = new ArrayList<>(removes.get(t));
                    remove.add("m" + (299 - added % 50));
                    client.call(remove.toArray(String[]::new));
                } while (!cursor.equals("0"));
                for (int i = 0; i < 250; i++) {
                    assertThat(seen).as(scans.get(t)).contains("m" + i);
                }
            }
        }
    }

    /**
     * Redis's cursor is a bucket index of the dict (a power of two no larger than twice the elements, while not
     * rehashing), so every cursor of a walk over 1,000 elements stays below 2,048 and a COUNT 10 call visits about
     * ten of them. A cursor that ordered elements by a 64-bit hash, or any other whole-collection order, fails this.
     */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void cursorsAreBucketIndexesOfTheDict(String name) {
        try (RedisTarget target = start(name); RespClient client = client(target)) {
            for (int i = 0; i < 1000; i += 100) {
                List<String> mset = new ArrayList<>(List.of("MSET"));
                List<String> sadd = new ArrayList<>(List.of("SADD", "s"));
                List<String> hset = new ArrayList<>(List.of("HSET", "h"));
                List<String> zadd = new ArrayList<>(List.of("ZADD", "z"));
                for (int j = i; j < i + 100; j++) {
                    mset.addAll(List.of("key:" + j, "v"));
                    sadd.add("m" + j);
                    hset.addAll(List.of("m" + j, "v"));
                    zadd.addAll(List.of(Integer.toString(j), "m" + j));
                }
                for (List<String> call : List.of(mset, sadd, hset, zadd)) {
                    client.call(call.toArray(String[]::new));
                }
            }
            for (String[] scan : new String[][] {{"SCAN"}, {"SSCAN", "s"}, {"HSCAN", "h"}, {"ZSCAN", "z"}}) {
                String cursor = "0";
                int calls = 0;
                do {
                    List<String> call = new ArrayList<>(List.of(scan));
                    call.addAll(List.of(cursor, "COUNT", "10"));
                    cursor = client.call(call.toArray(String[]::new)).children().get(0).text();
                    assertThat(Long.parseUnsignedLong(cursor)).as(scan[0] + " cursor").isLessThan(2048);
                    calls++;
                } while (!cursor.equals("0"));
                // 1,024 buckets (1,000 elements), ten or more buckets a call: about a hundred calls, never one per
                // element
                assertThat(calls).as(scan[0] + " calls").isBetween(50, 110);
            }
        }
    }

    /**
     * SCAN filters what it gathered by MATCH first, then TYPE, which reads each remaining key as a lookup does (a
     * keyspace hit), then expiry; without TYPE no key is read.
     */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void theTypeFilterReadsTheKeysThatPassedMatch(String name) {
        try (RedisTarget target = start(name); RespClient client = client(target)) {
            client.call("SET", "a", "1");
            client.call("SET", "b", "1");
            client.call("RPUSH", "l", "x");
            client.call("CONFIG", "RESETSTAT");
            client.call("SCAN", "0", "COUNT", "100");
            client.call("SCAN", "0", "MATCH", "*", "COUNT", "100");
            assertThat(stat(client, "keyspace_hits")).isEqualTo("0");
            assertThat(texts(client.call("SCAN", "0", "TYPE", "string", "COUNT", "100").children().get(1)))
                    .containsExactlyInAnyOrder("a", "b");
            assertThat(stat(client, "keyspace_hits")).isEqualTo("3");
            assertThat(texts(client.call("SCAN", "0", "MATCH", "a", "TYPE", "string", "COUNT", "100").children()
                    .get(1))).containsExactly("a");
            assertThat(stat(client, "keyspace_hits")).isEqualTo("4");
            assertThat(stat(client, "keyspace_misses")).isEqualTo("0");
        }
    }

    private static List<String> texts(RespValue array) {
        List<String> out = new ArrayList<>();
        array.children().forEach(v -> out.add(v.text()));
        return out;
    }

    private static String stat(RespClient client, String field) {
        for (String line : client.call("INFO", "stats").text().split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        throw new AssertionError("no " + field + " in INFO stats");
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }
}
