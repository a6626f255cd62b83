package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INFO's lazyfreed_objects counts what Redis hands to its lazyfree thread: an UNLINK (or a DEL with
 * lazyfree-lazy-user-del) of a value whose freeing takes more than 64 allocations, and every key of a FLUSHALL /
 * FLUSHDB that runs asynchronously; small values and synchronous deletions are not counted. On a fresh server of
 * each kind (it changes server-wide settings). Redis counts once its background thread has freed the value, so each
 * step waits for the count by polling INFO (round trips, bounded); a synchronous deletion between two counted ones
 * shows by the exact figure after the second. CONFIG RESETSTAT sets it back to 0.
 */
class LazyFreeTest {
    private static final long WAIT_NANOS = 5_000_000_000L;

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void unlinkOfBigValuesAndAsyncFlushesAreCounted(String name) {
        try (RedisTarget target = start(name); RespClient c = client(target)) {
            assertThat(lazyfreed(c)).isZero();
            fill(c);
            c.call("UNLINK", "hash");                   // 1000 fields, hashtable: counted
            awaitLazyfreed(c, 1);
            c.call("UNLINK", "small", "string");        // a listpack hash and a string: freed at once
            c.call("DEL", "set");                        // DEL frees in place (lazyfree-lazy-user-del no)
            c.call("UNLINK", "zset");                    // 1000 members, skiplist: counted
            awaitLazyfreed(c, 2);
            c.call("UNLINK", "list");                    // about a hundred quicklist nodes: counted
            awaitLazyfreed(c, 3);
            c.call("CONFIG", "SET", "lazyfree-lazy-user-del", "yes");
            c.call(prepend("SADD", "set2", members(1000)));
            c.call("DEL", "set2");                       // DEL acts as UNLINK now
            awaitLazyfreed(c, 4);

            c.call("MSET", "a", "1", "b", "2", "c", "3");
            c.call("FLUSHDB");                           // synchronous: not counted
            c.call("MSET", "a", "1", "b", "2");
            c.call("SELECT", "1");
            c.call("SET", "d", "4");
            c.call("FLUSHALL", "ASYNC");                 // three keys in two databases
            awaitLazyfreed(c, 7);
            c.call("CONFIG", "SET", "lazyfree-lazy-user-flush", "yes");
            c.call("MSET", "a", "1", "b", "2");
            c.call("FLUSHDB");                           // asynchronous by the setting now
            awaitLazyfreed(c, 9);
            c.call("SET", "a", "1");
            c.call("FLUSHDB", "SYNC");                   // SYNC wins over the setting
            c.call("SET", "a", "1");
            c.call("FLUSHDB", "ASYNC");
            awaitLazyfreed(c, 10);
            c.call("CONFIG", "RESETSTAT");               // resetServerStats resets it too
            assertThat(lazyfreed(c)).isZero();
        }
    }

    private static void fill(RespClient c) {
        List<String> hset = new ArrayList<>(List.of("HSET", "hash"));
        for (String m : members(1000)) {
            hset.add(m);
            hset.add("v");
        }
        c.call(hset.toArray(new String[0]));
        c.call("HSET", "small", "f", "v");
        c.call("SET", "string", "v");
        c.call(prepend("SADD", "set", members(1000)));
        List<String> zadd = new ArrayList<>(List.of("ZADD", "zset"));
        for (String m : members(1000)) {
            zadd.add("1");
            zadd.add(m);
        }
        c.call(zadd.toArray(new String[0]));
        String element = "x".repeat(1000);
        List<String> rpush = new ArrayList<>(List.of("RPUSH", "list"));
        for (int i = 0; i < 1000; i++) {
            rpush.add(element);
        }
        c.call(rpush.toArray(new String[0]));
    }

    private static String[] members(int count) {
        String[] members = new String[count];
        for (int i = 0; i < count; i++) {
            members[i] = "member:" + i;
        }
        return members;
    }

    private static String[] prepend(String first, String second, String[] rest) {
        String[] all = new String[rest.length + 2];
        all[0] = first;
        all[1] = second;
        System.arraycopy(rest, 0, all, 2, rest.length);
        return all;
    }

    /** Waits (round trips only, bounded) until INFO shows the count; then checks it is exactly that. */
    private static void awaitLazyfreed(RespClient c, long expected) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        long seen = lazyfreed(c);
        while (seen < expected && System.nanoTime() < deadline) {
            seen = lazyfreed(c);
        }
        assertThat(seen).isEqualTo(expected);
    }

    private static long lazyfreed(RespClient c) {
        for (String line : c.call("INFO", "memory").text().split("\r\n")) {
            if (line.startsWith("lazyfreed_objects:")) {
                return Long.parseLong(line.substring("lazyfreed_objects:".length()));
            }
        }
        throw new AssertionError("no lazyfreed_objects in INFO");
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        return new RespClient(target.host(), target.port());
    }
}
