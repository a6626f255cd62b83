package dev.redsim.simulator.commands;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.keyspace.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * OBJECT ENCODING transitions of sorted sets, observed on redis-server 7.0.15 and checked here on the engine
 * directly (OBJECT and CONFIG belong to other families): listpack until a write crosses
 * zset-max-listpack-entries/value, never back, and computed results re-encoded by their final size.
 */
class SortedSetEncodingTest {
    private static RedisSimulator simulator;
    private static RawRespSocket socket;

    @BeforeAll
    static void start() throws IOException {
        simulator = RedisSimulator.start();
        socket = new RawRespSocket(simulator.host(), simulator.port());
    }

    @AfterAll
    static void stop() throws IOException {
        socket.close();
        simulator.close();
    }

    @BeforeEach
    void reset() {
        simulator.flushAll();
        limits("128", "64");
    }

    private static void limits(String entries, String value) {
        simulator.onEngine(() -> {
            simulator.engine().config().set("zset-max-listpack-entries", entries);
            simulator.engine().config().set("zset-max-listpack-value", value);
            return null;
        });
    }

    private static String encoding(String key) {
        return simulator.onEngine(() -> simulator.engine().database(0).get(Bytes.of(key)).encoding());
    }

    private static String call(String... args) throws IOException {
        String raw = socket.call(args);
        return raw.startsWith("$") && !raw.startsWith("$-1") ? raw.substring(raw.indexOf('\n') + 1).trim() : raw.trim();
    }

    @Test
    void growsIntoASkiplistAndStaysThere() throws IOException {
        limits("2", "64");
        call("ZADD", "dup", "1", "a", "1", "a", "1", "a");
        assertThat(encoding("dup")).isEqualTo("listpack");
        call("ZADD", "z", "1", "a", "2", "b");
        assertThat(encoding("z")).isEqualTo("listpack");
        call("ZADD", "z", "3", "c");
        assertThat(encoding("z")).isEqualTo("skiplist");
        call("ZREM", "z", "a", "b");
        assertThat(encoding("z")).isEqualTo("skiplist");
        assertThat(call("ZUNIONSTORE", "u", "1", "z")).isEqualTo(":1");
        assertThat(encoding("u")).isEqualTo("listpack");
        call("ZADD", "n", "NX", "1", "a", "2", "b", "3", "c");
        assertThat(encoding("n")).isEqualTo("skiplist");
        assertThat(call("ZRANGESTORE", "r", "n", "0", "0")).isEqualTo(":1");
        assertThat(encoding("r")).isEqualTo("listpack");
        assertThat(call("ZRANGESTORE", "r", "n", "0", "-1")).isEqualTo(":3");
        assertThat(encoding("r")).isEqualTo("skiplist");
    }

    @Test
    void longMembersNeedASkiplist() throws IOException {
        limits("128", "3");
        call("ZADD", "first", "1", "abcd");
        assertThat(encoding("first")).isEqualTo("skiplist");
        call("ZADD", "later", "1", "abc");
        assertThat(encoding("later")).isEqualTo("listpack");
        call("ZADD", "later", "1", "abc", "2", "abcd");
        assertThat(encoding("later")).isEqualTo("skiplist");
        call("ZADD", "xx", "1", "abc");
        call("ZADD", "xx", "XX", "2", "abc", "2", "abcd");
        assertThat(encoding("xx")).isEqualTo("listpack");
        call("ZINCRBY", "incr", "1", "abcdef");
        assertThat(encoding("incr")).isEqualTo("skiplist");
    }

    @Test
    void disabledListpacksStartAsSkiplist() throws IOException {
        limits("0", "64");
        call("ZADD", "z", "-0.0", "a");
        assertThat(encoding("z")).isEqualTo("skiplist");
        assertThat(call("ZSCORE", "z", "a")).isEqualTo("-0");
    }

    @Test
    void scanPagesASkiplistUntilCursorZero() throws IOException {
        limits("2", "64");
        call("ZADD", "z", "1", "a", "2", "b", "3", "c", "4.5", "d", "5", "e");
        assertThat(encoding("z")).isEqualTo("skiplist");
        java.util.Map<String, String> seen = new java.util.TreeMap<>();
        String cursor = "0";
        int calls = 0;
        do {
            String[] lines = socket.call("ZSCAN", "z", cursor, "COUNT", "2").split("\r\n");
            // *2, $n, cursor, *m, then $len/value lines alternating member and score
            cursor = lines[2];
            for (int i = 5; i + 2 < lines.length; i += 4) {
                seen.put(lines[i], lines[i + 2]);
            }
            calls++;
        } while (!cursor.equals("0") && calls < 20);
        assertThat(calls).isGreaterThan(1);
        assertThat(seen).containsExactlyEntriesOf(
                new java.util.TreeMap<>(java.util.Map.of("a", "1", "b", "2", "c", "3", "d", "4.5", "e", "5")));
    }
}
