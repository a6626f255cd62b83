package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DUMP payloads taken from redis-server 7.0.15, for every type and encoding it writes, restored into the simulator
 * and back: the simulator builds the same value (type, encoding, contents), DUMPs it to the very same bytes where
 * Redis's own output is deterministic, and redis-server restores the simulator's payload to the same value. Hash
 * table sets and hashes are written in the order of Redis's randomly seeded tables, so for them the bytes are not
 * compared; every other payload is.
 */
class DumpRestoreTest {
    private static RedisSimulator simulator;
    private static RespClient redis;
    private static RespClient sim;

    /**
     * A key built by commands on both sides, whether its payload's bytes are deterministic, how to read it, and
     * whether the two servers' own values DUMP to the same bytes (not when the value holds the servers' times).
     */
    private record Case(String name, List<String[]> build, boolean exactBytes, String[] read, boolean builtSame) {
        Case(String name, List<String[]> build, boolean exactBytes, String[] read) {
            this(name, build, exactBytes, read, exactBytes);
        }
    }

    @BeforeAll
    static void start() {
        simulator = RedisSimulator.start();
        RedisTarget reference = SharedTargets.reference();
        redis = new RespClient(reference.host(), reference.port());
        sim = new RespClient(simulator.host(), simulator.port());
    }

    @AfterAll
    static void stop() {
        redis.close();
        sim.close();
        simulator.close();
    }

    @Test
    void everyTypeAndEncodingRoundTrips() {
        List<Case> cases = new ArrayList<>();
        cases.add(string("int8", "12"));
        cases.add(string("int16", "-3000"));
        cases.add(string("int32", "2000000000"));
        cases.add(string("int64", "-9223372036854775808"));
        cases.add(string("embstr", "hello world"));
        cases.add(string("raw-compressible", "abc".repeat(40)));
        cases.add(string("raw-incompressible", "The quick brown fox jumps over the lazy dog, 0123456789."));
        cases.add(string("empty", ""));
        cases.add(new Case("string-edited", List.<String[]>of(new String[] {"SETRANGE", "%k", "3", "xyz"}), true,
                new String[] {"GET", "%k"}));
        cases.add(collection("list-small", "RPUSH", List.of("a", "1", "-70000", "4294967296", "x".repeat(100)), true,
                "LRANGE", "%k", "0", "-1"));
        cases.add(collection("list-nodes", "RPUSH", numbered("element-", 1500), true, "LRANGE", "%k", "0", "-1"));
        cases.add(collection("list-big-elements", "RPUSH", List.of("y".repeat(6000), "z".repeat(6000), "w"), true,
                "LRANGE", "%k", "0", "-1"));
        cases.add(collection("intset-16", "SADD", List.of("1", "-5", "300"), true, "SMEMBERS", "%k"));
        cases.add(collection("intset-32", "SADD", List.of("1", "70000"), true, "SMEMBERS", "%k"));
        cases.add(collection("intset-64", "SADD", List.of("1", "5000000000"), true, "SMEMBERS", "%k"));
        cases.add(collection("set-hashtable", "SADD", List.of("a", "b", "1"), false, "SMEMBERS", "%k"));
        cases.add(collection("set-hashtable-large", "SADD", numbered("m", 700), false, "SMEMBERS", "%k"));
        cases.add(collection("zset-listpack", "ZADD", List.of("1", "a", "2.5", "b", "-3", "c", "1e20", "d", "inf", "e",
                "0.1", "f"), true, "ZRANGE", "%k", "0", "-1", "WITHSCORES"));
        cases.add(collection("zset-skiplist", "ZADD", scored(300), true, "ZRANGE", "%k", "0", "-1", "WITHSCORES"));
        cases.add(collection("zset-long-member", "ZADD", List.of("1", "m".repeat(80)), true,
                "ZRANGE", "%k", "0", "-1", "WITHSCORES"));
        cases.add(collection("hash-listpack", "HSET", List.of("f1", "v1", "f2", "2", "f3", "-70000"), true,
                "HGETALL", "%k"));
        cases.add(collection("hash-hashtable", "HSET", List.of("f", "v".repeat(100), "g", "w"), false, "HGETALL", "%k"));
        cases.add(collection("hash-hashtable-large", "HSET", pairs(600), false, "HGETALL", "%k"));

        cases.addAll(streams());

        for (Case c : cases) {
            String key = "dump:" + c.name;
            String copy = key + ":restored";
            for (RespClient client : List.of(redis, sim)) {
                client.call("DEL", key, copy);
                for (String[] command : c.build) {
                    client.call(substitute(command, key));
                }
            }
            RespValue fromRedis = redis.call("DUMP", key);
            assertThat(fromRedis.type()).as(c.name).isEqualTo('$');
            if (c.builtSame) {
                assertThat(sim.call("DUMP", key).data()).as(c.name + ": the DUMP of the value the simulator built")
                        .isEqualTo(fromRedis.data());
            }

            // Redis's payload restored into both servers: the same value, and the same bytes back
            for (RespClient client : List.of(redis, sim)) {
                assertThat(client.call("RESTORE".getBytes(), copy.getBytes(), "0".getBytes(), fromRedis.data()).text())
                        .as(c.name + ": RESTORE of Redis's payload").isEqualTo("OK");
            }
            assertSameValue(c, copy, redis, copy, sim, copy);
            RespValue fromSimulator = sim.call("DUMP", copy);
            if (c.exactBytes) {
                assertThat(fromSimulator.data()).as(c.name + ": the simulator's DUMP").isEqualTo(fromRedis.data());
            }
            // and the simulator's payload restored into Redis
            String back = key + ":back";
            redis.call("DEL", back);
            assertThat(redis.call("RESTORE".getBytes(), back.getBytes(), "0".getBytes(), fromSimulator.data()).text())
                    .as(c.name + ": RESTORE of the simulator's payload").isEqualTo("OK");
            assertSameValue(c, back, redis, back, sim, copy);
            redis.call("DEL", back);
            for (RespClient client : List.of(redis, sim)) {
                client.call("DEL", key, copy);
            }
        }
    }

    /**
     * Streams: nodes split by stream-node-max-bytes, IDs whose deltas from the node's master are negative, entries
     * with and without the master's fields, deleted entries left in their nodes by XDEL and XTRIM, empty streams,
     * and consumer groups with pending entries, consumers and an unknown read counter (their times are the
     * servers' own, so those values are compared only through RESTORE).
     */
    private static List<Case> streams() {
        String[] read = {"XINFO", "STREAM", "%k", "FULL", "COUNT", "0"};
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("stream-small", commands(
                "XADD %k 1-1 a 1 b hello", "XADD %k 1-2 a 2 b world", "XADD %k 2-0 c 3",
                "XADD %k 2-1 a -70000 b " + "compressible".repeat(5), "XADD %k 3-0 b 1 a 2"), true, read));
        List<String> many = new ArrayList<>();
        for (int i = 1; i <= 300; i++) {
            many.add("XADD %k " + (i / 7 + 5) + "-" + (i % 7 == 0 ? 0 : 100 - i % 7) + " field value-" + "v".repeat(i % 50)
                    + " n " + i);
        }
        cases.add(new Case("stream-nodes", commands(many.toArray(new String[0])), true, read));
        cases.add(new Case("stream-deleted", commands(
                "XADD %k 1-1 a 1", "XADD %k 1-2 a 2", "XADD %k 1-3 a 3", "XADD %k 1-4 b 4", "XADD %k 1-5 a 5",
                "XADD %k 1-6 a 6", "XADD %k 1-7 a 7", "XADD %k 1-8 a 8", "XDEL %k 1-1 1-5", "XTRIM %k MAXLEN 4"),
                true, read));
        cases.add(new Case("stream-empty", commands("XADD %k 7-7 a b", "XDEL %k 7-7"), true, read));
        cases.add(new Case("stream-mkstream", commands("XGROUP CREATE %k g $ MKSTREAM"), true, read));
        cases.add(new Case("stream-large-ids", commands("XADD %k 18446744073709551614-5 a b",
                "XADD %k 18446744073709551615-18446744073709551615 a c"), true, read));
        cases.add(new Case("stream-groups", commands(
                "XADD %k 1-1 a 1", "XADD %k 1-2 a 2", "XADD %k 1-3 a 3", "XADD %k 1-4 a 4", "XADD %k 1-5 a 5",
                "XGROUP CREATE %k g1 0", "XGROUP CREATE %k g2 $", "XGROUP CREATE %k g3 1-2",
                "XREADGROUP GROUP g1 alice COUNT 2 STREAMS %k >", "XREADGROUP GROUP g1 bob COUNT 2 STREAMS %k >",
                "XACK %k g1 1-1", "XCLAIM %k g1 alice 0 1-3", "XGROUP CREATECONSUMER %k g2 carol",
                "XDEL %k 1-2"), true, read, false));
        return cases;
    }

    private static List<String[]> commands(String... lines) {
        List<String[]> out = new ArrayList<>();
        for (String line : lines) {
            out.add(line.split(" "));
        }
        return out;
    }

    private static void assertSameValue(Case c, String what, RespClient a, String keyA, RespClient b, String keyB) {
        assertThat(b.call("TYPE", keyB)).as(c.name + ": TYPE of " + what).isEqualTo(a.call("TYPE", keyA));
        assertThat(b.call("OBJECT", "ENCODING", keyB)).as(c.name + ": OBJECT ENCODING of " + what)
                .isEqualTo(a.call("OBJECT", "ENCODING", keyA));
        RespValue expected = a.call(substitute(c.read, keyA));
        RespValue actual = b.call(substitute(c.read, keyB));
        boolean unordered = c.read[0].equals("SMEMBERS") || (c.read[0].equals("HGETALL") && !c.exactBytes);
        if (unordered) {
            expected = pairsSorted(expected, c.read[0].equals("HGETALL"));
            actual = pairsSorted(actual, c.read[0].equals("HGETALL"));
        }
        assertThat(actual).as(c.name + ": contents of " + what).isEqualTo(expected);
    }

    /** A hash-table reply in a stable order: members sorted, or field/value pairs sorted by field. */
    private static RespValue pairsSorted(RespValue reply, boolean pairs) {
        if (!pairs) {
            return reply.sorted();
        }
        List<List<RespValue>> grouped = new ArrayList<>();
        List<RespValue> children = reply.children();
        for (int i = 0; i + 1 < children.size(); i += 2) {
            grouped.add(List.of(children.get(i), children.get(i + 1)));
        }
        grouped.sort((x, y) -> x.get(0).toString().compareTo(y.get(0).toString()));
        List<RespValue> flat = new ArrayList<>();
        grouped.forEach(flat::addAll);
        return RespValue.aggregate(reply.type(), flat);
    }

    private static Case string(String name, String value) {
        return new Case("string-" + name, List.<String[]>of(new String[] {"SET", "%k", value}), true,
                new String[] {"GET", "%k"});
    }

    private static Case collection(String name, String command, List<String> args, boolean exactBytes, String... read) {
        List<String[]> build = new ArrayList<>();
        // in chunks, so no single command is huge
        for (int from = 0; from < args.size(); from += 200) {
            List<String> chunk = new ArrayList<>(List.of(command, "%k"));
            chunk.addAll(args.subList(from, Math.min(args.size(), from + 200)));
            build.add(chunk.toArray(new String[0]));
        }
        return new Case(name, build, exactBytes, read);
    }

    private static List<String> numbered(String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    private static List<String> scored(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(Double.toString(i * 1.5));
            out.add("member-" + i);
        }
        return out;
    }

    private static List<String> pairs(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add("field-" + i);
            out.add("value-" + i);
        }
        return out;
    }

    private static byte[][] substitute(String[] command, String key) {
        byte[][] args = new byte[command.length][];
        for (int i = 0; i < command.length; i++) {
            args[i] = (command[i].equals("%k") ? key : command[i]).getBytes(StandardCharsets.UTF_8);
        }
        return args;
    }
}
