package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client-side caching on a fresh simulator and a fresh redis-server each: every kind of key change invalidates a
 * key a tracking client read (writes of each data type, expiry, flushes, MULTI/EXEC, scripts), redirection and
 * its breakage (with the ids the scenario files can only compare by shape), the tracking table's limit, and the
 * INFO figures. "Nothing came" is a read that times out after 200 ms, checked after a later push that would have
 * come behind it.
 */
class TrackingTest {

    /** Writes of every data type, each after a read of the keys it changes: {setup..., write, changed keys}. */
    private static final String[][][] WRITES = {
        {{"SET k 1"}, {"SET k 2"}, {"k"}},
        {{"SET k 1"}, {"DEL k"}, {"k"}},
        {{"SET k 1"}, {"UNLINK k"}, {"k"}},
        {{"SET k 1"}, {"APPEND k x"}, {"k"}},
        {{"SET k 1"}, {"INCRBY k 5"}, {"k"}},
        {{"SET k 1"}, {"GETDEL k"}, {"k"}},
        {{"SET k 1"}, {"GETEX k PX 100000"}, {"k"}},
        {{"SET k 1"}, {"SETRANGE k 3 x"}, {"k"}},
        {{"SET k 1"}, {"EXPIRE k 100"}, {"k"}},
        {{"SET k 1 EX 100"}, {"PERSIST k"}, {"k"}},
        {{"SET k 1"}, {"RENAME k k2"}, {"k", "k2"}},
        {{"SET k 1"}, {"COPY k k2"}, {"k2"}},
        {{"SET k 1"}, {"MOVE k 1"}, {"k"}},
        {{"RPUSH k a b"}, {"LPOP k"}, {"k"}},
        {{"RPUSH k a b"}, {"LSET k 0 z"}, {"k"}},
        {{"RPUSH k a b", "RPUSH k2 c"}, {"LMOVE k k2 LEFT RIGHT"}, {"k2", "k"}}, // the destination first, as Redis signals
        {{"HSET k f v"}, {"HINCRBY k n 1"}, {"k"}},
        {{"HSET k f v"}, {"HDEL k f"}, {"k"}},
        {{"SADD k a b"}, {"SREM k a"}, {"k"}},
        {{"SADD k a b"}, {"SPOP k"}, {"k"}},
        {{"SADD k a", "SADD k2 b"}, {"SUNIONSTORE k2 k k2"}, {"k2"}},
        {{"ZADD k 1 a"}, {"ZINCRBY k 2 a"}, {"k"}},
        {{"ZADD k 1 a 2 b"}, {"ZPOPMIN k"}, {"k"}},
        {{"ZADD k 1 a"}, {"ZREMRANGEBYSCORE k 0 5"}, {"k"}},
        {{"XADD k 1-1 f v"}, {"XADD k 2-1 f v"}, {"k"}},
        {{"XADD k 1-1 f v"}, {"XTRIM k MAXLEN 0"}, {"k"}},
        {{"PFADD k a"}, {"PFADD k b"}, {"k"}},
        {{"SETBIT k 1 1"}, {"SETBIT k 2 1"}, {"k"}},
        {{"SET k 1", "SET k2 2"}, {"BITOP OR k3 k k2"}, {"k3"}},
        {{"GEOADD k 13.36 38.11 a"}, {"GEOADD k 15.08 37.50 b"}, {"k"}},
        {{"RPUSH k 3 1 2"}, {"SORT k STORE k2"}, {"k2"}},
        {{"SET k 1"}, {"EVAL \"return redis.call('incr', KEYS[1])\" 1 k"}, {"k"}},
        {{"SET k 1"}, {"FLUSHDB"}, {}},
    };

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void everyWriteInvalidatesTheKeysItChanges(String name) {
        try (RedisTarget target = start(name); RespClient reader = resp3(target); RespClient writer = client(target)) {
            assertThat(reader.call("CLIENT", "TRACKING", "on").text()).isEqualTo("OK");
            for (String[][] write : WRITES) {
                writer.call("FLUSHALL");
                assertThat(reader.read().toString()).as("the flush before " + write[1][0])
                        .isEqualTo(">2\\r\\n$10\\r\\ninvalidate\\r\\n_\\r\\n");
                for (String setup : write[0]) {
                    writer.call(split(setup));
                }
                for (String key : List.of("k", "k2", "k3")) {
                    reader.call("EXISTS", key);
                }
                assertThat(writer.call(split(write[1][0])).isError()).as(write[1][0]).isFalse();
                if (write[2].length == 0) { // a flush: one null for everything
                    assertThat(reader.read().toString()).isEqualTo(">2\\r\\n$10\\r\\ninvalidate\\r\\n_\\r\\n");
                }
                for (String key : write[2]) {
                    assertThat(reader.read().toString()).as(write[1][0])
                            .isEqualTo(">2\\r\\n$10\\r\\ninvalidate\\r\\n*1\\r\\n$" + key.length() + "\\r\\n" + key
                                    + "\\r\\n");
                }
            }
            writer.call("SET", "last", "1");
            reader.call("GET", "last");
            writer.call("SET", "last", "2");
            // the last push proves no stray invalidation came between it and the previous ones
            assertThat(reader.read().toString()).isEqualTo(">2\\r\\n$10\\r\\ninvalidate\\r\\n*1\\r\\n$4\\r\\nlast\\r\\n");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void anExpiredKeyIsInvalidated(String name) {
        try (RedisTarget target = start(name); RespClient reader = resp3(target); RespClient writer = client(target)) {
            reader.call("CLIENT", "TRACKING", "on");
            writer.call("SET", "session", "s", "PX", "100");
            assertThat(reader.call("GET", "session").text()).isEqualTo("s");
            if (target instanceof SimulatorTarget simulator) {
                simulator.simulator().advanceTime(Duration.ofMillis(150)); // the active sweep runs on the clock
            }
            reader.setTimeoutMillis(10_000); // redis-server: its active expiry runs ten times a second
            assertThat(reader.read().toString()).isEqualTo(">2\\r\\n$10\\r\\ninvalidate\\r\\n*1\\r\\n$7\\r\\nsession\\r\\n");
            assertThat(writer.call("EXISTS", "session").asLong()).isZero();
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void transactionsAndScriptsInvalidateAfterTheirReply(String name) {
        try (RedisTarget target = start(name); RespClient reader = resp3(target); RespClient writer = client(target)) {
            reader.call("CLIENT", "TRACKING", "on");
            reader.call("MULTI");
            reader.call("GET", "a");
            reader.call("GET", "b");
            assertThat(reader.call("EXEC").children()).hasSize(2); // reads inside EXEC are tracked
            writer.call("MULTI");
            writer.call("SET", "a", "1");
            writer.call("SET", "b", "1");
            writer.call("EXEC");
            assertThat(pushedKey(reader.read())).isEqualTo("a");
            assertThat(pushedKey(reader.read())).isEqualTo("b");
            reader.call("GET", "a");
            // the client's own write in a script: the script's reply first, then the invalidation
            assertThat(reader.call("EVAL", "return redis.call('set', KEYS[1], 'x')", "1", "a").text()).isEqualTo("OK");
            assertThat(pushedKey(reader.read())).isEqualTo("a");
            // a script's reads make its caller track the keys it declared
            reader.call("EVAL", "return redis.call('get', 'undeclared')", "1", "declared");
            writer.call("SET", "undeclared", "1");
            writer.call("SET", "declared", "1");
            assertThat(pushedKey(reader.read())).isEqualTo("declared");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void flushesReachARedirectAsANullMessageOnTheInvalidateChannel(String name) {
        try (RedisTarget target = start(name); RespClient tracker = client(target);
             RespClient listener = client(target); RespClient writer = client(target)) {
            long listenerId = listener.call("CLIENT", "ID").asLong();
            listener.call("SUBSCRIBE", "__redis__:invalidate");
            assertThat(tracker.call("CLIENT", "TRACKING", "on", "REDIRECT", Long.toString(listenerId)).text())
                    .isEqualTo("OK");
            assertThat(tracker.call("CLIENT", "GETREDIR").asLong()).isEqualTo(listenerId);
            assertThat(tracker.call("CLIENT", "TRACKINGINFO").children().get(3).asLong()).isEqualTo(listenerId);
            assertThat(tracker.call("CLIENT", "INFO").text()).contains(" flags=t ").contains(" redir=" + listenerId + " ");
            tracker.call("GET", "k");
            writer.call("FLUSHALL");
            assertThat(listener.read().toString())
                    .isEqualTo("*3\\r\\n$7\\r\\nmessage\\r\\n$20\\r\\n__redis__:invalidate\\r\\n$-1\\r\\n");
            tracker.call("GET", "k");
            writer.call("SET", "k", "v");
            assertThat(listener.read().toString()).isEqualTo(
                    "*3\\r\\n$7\\r\\nmessage\\r\\n$20\\r\\n__redis__:invalidate\\r\\n*1\\r\\n$1\\r\\nk\\r\\n");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aRedirectThatGoesAwayIsReportedBroken(String name) {
        try (RedisTarget target = start(name); RespClient tracker = resp3(target); RespClient writer = client(target)) {
            RespClient listener = client(target);
            long listenerId = listener.call("CLIENT", "ID").asLong();
            tracker.call("CLIENT", "TRACKING", "on", "REDIRECT", Long.toString(listenerId));
            listener.close();
            awaitGone(writer, listenerId);
            tracker.call("GET", "k");
            writer.call("SET", "k", "1");
            assertThat(tracker.read().toString())
                    .isEqualTo(">2\\r\\n$21\\r\\ntracking-redir-broken\\r\\n:" + listenerId + "\\r\\n");
            RespValue info = tracker.call("CLIENT", "TRACKINGINFO");
            assertThat(info.children().get(1).toString()).isEqualTo("~2\\r\\n$2\\r\\non\\r\\n$15\\r\\nbroken_redirect\\r\\n");
            assertThat(info.children().get(3).asLong()).isEqualTo(listenerId);
            assertThat(tracker.call("CLIENT", "INFO").text()).contains(" flags=tR ");
            assertThat(tracker.call("CLIENT", "TRACKING", "on", "REDIRECT", Long.toString(listenerId)).text())
                    .isEqualTo("ERR The client ID you want redirect to does not exist");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void theTableLimitDropsKeysAndTellsTheirClients(String name) {
        try (RedisTarget target = start(name); RespClient reader = resp3(target); RespClient admin = client(target)) {
            admin.call("CONFIG", "SET", "tracking-table-max-keys", "2");
            reader.call("CLIENT", "TRACKING", "on");
            assertThat(reader.call("MGET", "a", "b", "c", "d").children()).hasSize(4);
            List<String> dropped = new ArrayList<>();
            dropped.add(pushedKey(reader.read()));
            dropped.add(pushedKey(reader.read()));
            assertThat(dropped).doesNotHaveDuplicates().isSubsetOf("a", "b", "c", "d");
            assertThat(info(admin, "tracking_total_keys")).isEqualTo("2");
            assertThat(info(admin, "tracking_total_items")).isEqualTo("2");
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void infoCountsTrackingClientsKeysItemsAndPrefixes(String name) {
        try (RedisTarget target = start(name); RespClient one = resp3(target); RespClient two = resp3(target);
             RespClient admin = client(target)) {
            one.call("CLIENT", "TRACKING", "on");
            two.call("CLIENT", "TRACKING", "on");
            one.call("MGET", "a", "b");
            two.call("GET", "a");
            RespClient bcast = resp3(target);
            bcast.call("CLIENT", "TRACKING", "on", "BCAST", "PREFIX", "x", "PREFIX", "y");
            assertThat(bcast.call("CLIENT", "INFO").text()).contains(" flags=tB ");
            assertThat(info(admin, "tracking_clients")).isEqualTo("3");
            assertThat(info(admin, "tracking_total_keys")).isEqualTo("2");
            assertThat(info(admin, "tracking_total_items")).isEqualTo("3");
            assertThat(info(admin, "tracking_total_prefixes")).isEqualTo("2");
            one.call("CLIENT", "TRACKING", "off"); // its entries stay until their keys change, as in Redis
            bcast.call("RESET");
            assertThat(info(admin, "tracking_clients")).isEqualTo("1");
            assertThat(info(admin, "tracking_total_items")).isEqualTo("3");
            assertThat(info(admin, "tracking_total_prefixes")).isEqualTo("0");
            admin.call("SET", "a", "1");
            assertThat(pushedKey(two.read())).isEqualTo("a");
            assertThat(info(admin, "tracking_total_keys")).isEqualTo("1");
            assertThat(info(admin, "tracking_total_items")).isEqualTo("1");
            bcast.close();
        }
    }

    private static String pushedKey(RespValue push) {
        assertThat(push.type()).isEqualTo('>');
        assertThat(push.children().get(0).text()).isEqualTo("invalidate");
        assertThat(push.children().get(1).children()).hasSize(1);
        return push.children().get(1).children().get(0).text();
    }

    /** Waits (at most 10 s) until the server no longer lists the client. */
    private static void awaitGone(RespClient admin, long id) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (admin.call("CLIENT", "LIST", "ID", Long.toString(id)).text().contains("id=" + id + " ")) {
            assertThat(System.nanoTime()).as("client " + id + " still listed").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static String info(RespClient admin, String field) {
        for (String line : admin.call("INFO", "everything").text().split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1);
            }
        }
        throw new AssertionError("no " + field + " in INFO");
    }

    private static String[] split(String command) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (char c : command.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ' ' && !quoted) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts.toArray(new String[0]);
    }

    private static RedisTarget start(String name) {
        return name.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static RespClient client(RedisTarget target) {
        RespClient client = new RespClient(target.host(), target.port());
        client.setTimeoutMillis(10_000);
        return client;
    }

    private static RespClient resp3(RedisTarget target) {
        RespClient client = client(target);
        client.call("HELLO", "3");
        return client;
    }
}
