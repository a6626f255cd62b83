package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StringValue;
import dev.redsim.simulator.util.ChunkedBytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Strings of a few chunks (decision 0048: SET, MSET and their kind keep a big value in the chunks it arrived in) behave as
 * on redis-server, reply for reply, byte for byte: the commands that read them in pieces (GET, GETRANGE across chunk
 * edges, MGET, GETEX, GETDEL, GETSET, SET ... GET, Lua), the ones that need them whole (APPEND, SETRANGE, DUMP, COPY),
 * MULTI, and the slow log's shortened argument.
 */
class BigValuesTest {
    private static RedisSimulator simulator;
    private static RespClient redis;
    private static RespClient sim;
    /** This JVM's chunk size: the values below are two and a half chunks long, so every one of them is chunked. */
    private static final int CHUNK = ChunkedBytes.chunkSizeFor(Integer.MAX_VALUE);
    private static final byte[] BIG = pattern(CHUNK * 2 + CHUNK / 2 + 17, 1);
    private static final byte[] OTHER = pattern(CHUNK * 2, 2);

    @BeforeAll
    static void start() {
        simulator = RedisSimulator.start();
        RedisTarget reference = SharedTargets.reference();
        redis = new RespClient(reference.host(), reference.port());
        sim = new RespClient(simulator.host(), simulator.port());
        both("SELECT", "9");
        both("FLUSHDB");
    }

    @AfterAll
    static void stop() {
        both("FLUSHDB");
        both("CONFIG", "SET", "slowlog-log-slower-than", "10000");
        redis.close();
        sim.close();
        simulator.close();
    }

    @Test
    void readersTakeAValueInChunksAsRedisServesIt() {
        same("SET", "big", BIG);
        assertThat(keptInChunks("big")).as("SET kept the value in chunks").isTrue();
        same("GET", "big");
        same("STRLEN", "big");
        same("GETRANGE", "big", num(CHUNK - 10), num(CHUNK + 10)); // across the first chunk's edge
        same("GETRANGE", "big", "0", "-1");
        same("GETRANGE", "big", "-5", "-1");
        same("GETRANGE", "big", num(2 * CHUNK), num(3 * CHUNK)); // the short last chunk, past the end
        same("MGET", "big", "missing", "big");
        same("OBJECT", "ENCODING", "big");
        same("EXISTS", "big");
        same("EVAL", "return redis.call('GET', KEYS[1])", "1", "big");
        same("EVAL", "return #redis.call('GET', KEYS[1])", "1", "big");
        assertThat(keptInChunks("big")).as("readers in pieces left it in chunks").isTrue();
    }

    @Test
    void theSetFamilyStoresChunkedValues() {
        same("SETEX", "ex", "100", BIG);
        same("TTL", "ex");
        same("GET", "ex");
        same("PSETEX", "pex", "100000", OTHER);
        same("GET", "pex");
        same("SETNX", "nx", BIG);
        same("SETNX", "nx", OTHER);
        same("GET", "nx");
        same("GETSET", "nx", "small");
        same("GETSET", "nx", OTHER);
        same("GET", "nx");
        same("SET", "withget", BIG, "GET");
        same("SET", "withget", OTHER, "GET");
        same("SET", "withget", BIG, "XX", "GET", "KEEPTTL");
        same("SET", "withget", OTHER, "NX");
        same("SET", "expiring", BIG, "EX", "100");
        same("TTL", "expiring");
        same("GETEX", "expiring", "PERSIST");
        same("TTL", "expiring");
        same("GETDEL", "expiring");
        same("EXISTS", "expiring");
        same("MSET", "m1", BIG, "m2", "small", "m3", OTHER);
        same("MGET", "m1", "m2", "m3");
        same("MSETNX", "m4", OTHER, "m1", BIG);
        same("MSETNX", "m4", OTHER, "m5", BIG);
        same("MGET", "m4", "m5");
        assertThat(keptInChunks("pex")).isTrue();
        assertThat(keptInChunks("withget")).isTrue();
        assertThat(keptInChunks("m3")).isTrue();
        assertThat(keptInChunks("m5")).isTrue();
    }

    @Test
    void editorsAndCopiesGetTheWholeValue() {
        same("SET", "edit", BIG);
        same("COPY", "edit", "copied");
        same("GET", "copied");
        same("DUMP", "edit");
        same("APPEND", "edit", "tail");
        same("GETRANGE", "edit", "-10", "-1");
        same("SETRANGE", "edit", num(CHUNK - 1), "across");
        same("GETRANGE", "edit", num(CHUNK - 3), num(CHUNK + 8));
        same("SETBIT", "edit", num(8L * CHUNK + 3), "1");
        same("GET", "edit");
        same("OBJECT", "ENCODING", "edit");
        same("GET", "copied"); // the copy did not change with the original
        same("SET", "big-dumped", BIG);
        RespValue dump = sim.call("DUMP", "big-dumped");
        same("DEL", "restored");
        assertThat(redis.call(bytes("RESTORE"), bytes("restored"), bytes("0"), dump.data()).text()).isEqualTo("OK");
        assertThat(redis.call("GET", "restored").data()).isEqualTo(BIG);
    }

    @Test
    void insideMultiAndInThePipelineAsOnRedis() {
        for (RespClient client : List.of(redis, sim)) {
            client.send(bytes("MULTI"));
            client.send(bytes("SET"), bytes("tx"), BIG);
            client.send(bytes("GET"), bytes("tx"));
            client.send(bytes("EXEC"));
            client.send(bytes("SET"), bytes("piped"), OTHER);
            client.send(bytes("PING"));
        }
        for (int i = 0; i < 6; i++) {
            assertThat(sim.read()).isEqualTo(redis.read());
        }
        same("GET", "piped");
        same("GET", "tx");
    }

    @Test
    void theSlowLogShortensAChunkedValueAsRedisDoes() {
        both("CONFIG", "SET", "slowlog-log-slower-than", "0");
        both("SLOWLOG", "RESET");
        same("SET", "slow", BIG, "PX", "100000");
        RespValue redisEntry = redis.call("SLOWLOG", "GET", "1").children().get(0);
        RespValue simEntry = sim.call("SLOWLOG", "GET", "1").children().get(0);
        both("CONFIG", "SET", "slowlog-log-slower-than", "10000");
        assertThat(simEntry.children().get(3)).isEqualTo(redisEntry.children().get(3)); // the arguments as logged
        assertThat(simEntry.children().get(3).children().get(2).text()).endsWith("more bytes)");
    }

    /** Whether the simulator holds the string under {@code key} (database 9) in chunks. */
    private static boolean keptInChunks(String key) {
        return simulator.onEngine(() -> {
            Object value = simulator.engine().database(9).peek(Bytes.of(key));
            return value instanceof StringValue s && s.chunks() != null;
        });
    }

    private static void same(Object... args) {
        byte[][] command = Arrays.stream(args).map(a -> a instanceof byte[] b ? b : bytes((String) a))
                .toArray(byte[][]::new);
        RespValue want = redis.call(command);
        RespValue got = sim.call(command);
        assertThat(got).as(describe(command)).isEqualTo(want);
    }

    private static void both(String... args) {
        redis.call(args);
        sim.call(args);
    }

    private static String describe(byte[][] command) {
        List<String> words = new ArrayList<>();
        for (byte[] arg : command) {
            words.add(arg.length > 40 ? "<" + arg.length + " bytes>" : new String(arg, StandardCharsets.UTF_8));
        }
        return String.join(" ", words);
    }

    private static byte[] pattern(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        for (int i = 0; i < length; i += 64) {
            bytes[i] = 'x'; // some repeats, so that DUMP's compression has something to find
        }
        return bytes;
    }

    private static String num(long n) {
        return Long.toString(n);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
