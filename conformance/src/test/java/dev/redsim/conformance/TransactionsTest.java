package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What transactions.txt cannot say: WATCH and expiry (simulator only, its clock moved by the test, since a real
 * server would need real waiting), and CLIENT LIST's MULTI fields (compared by field on both targets).
 */
class TransactionsTest {
    /** A clock the test moves by hand; unlike advanceTime it leaves expired keys stored until touched. */
    static final class ManualClock extends Clock {
        private volatile long millis = 1_700_000_000_000L;

        void advance(long by) {
            millis += by;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }

    private ManualClock clock;
    private RedisSimulator simulator;
    private RespClient c1;
    private RespClient c2;

    @BeforeEach
    void start() {
        clock = new ManualClock();
        simulator = RedisSimulator.builder().clock(clock).start();
        c1 = new RespClient(simulator.host(), simulator.port());
        c2 = new RespClient(simulator.host(), simulator.port());
    }

    @AfterEach
    void stop() {
        c1.close();
        c2.close();
        simulator.close();
    }

    private String call(RespClient c, String... args) {
        return c.call(args).toString();
    }

    @Test
    void watchedKeyThatExpiresBeforeExecAbortsIt() {
        call(c1, "SET", "k", "v", "PX", "100");
        call(c1, "WATCH", "k");
        call(c1, "MULTI");
        call(c1, "SET", "k", "new");
        clock.advance(200); // still stored: EXEC itself sees that it expired
        assertThat(call(c1, "EXEC")).isEqualTo("*-1\\r\\n");
        assertThat(call(c1, "EXISTS", "k")).isEqualTo(":0\\r\\n");
    }

    @Test
    void watchedKeyRemovedByActiveExpiryAbortsExec() {
        simulator.freezeTime();
        call(c1, "SET", "k", "v", "PX", "100");
        call(c1, "WATCH", "k");
        call(c1, "MULTI");
        call(c1, "PING");
        simulator.advanceTime(Duration.ofMillis(200)); // sweeps the key away, as Redis's active expiry
        assertThat(call(c1, "EXEC")).isEqualTo("*-1\\r\\n");
    }

    @Test
    void watchedKeyRemovedByAnotherClientsLookupAbortsExec() {
        call(c1, "SET", "k", "v", "PX", "100");
        call(c1, "WATCH", "k");
        clock.advance(200);
        assertThat(call(c2, "GET", "k")).isEqualTo("$-1\\r\\n");
        call(c1, "MULTI");
        call(c1, "PING");
        assertThat(call(c1, "EXEC")).isEqualTo("*-1\\r\\n");
    }

    @Test
    void watchedKeyWithTimeLeftDoesNotAbort() {
        call(c1, "SET", "k", "v", "PX", "1000");
        call(c1, "WATCH", "k");
        clock.advance(500);
        call(c1, "MULTI");
        call(c1, "GET", "k");
        assertThat(call(c1, "EXEC")).isEqualTo("*1\\r\\n$1\\r\\nv\\r\\n");
    }

    @Test
    void keyAlreadyExpiredWhenWatchedDoesNotAbort() {
        call(c1, "SET", "k", "v", "PX", "100");
        clock.advance(200);
        call(c1, "WATCH", "k");
        call(c1, "MULTI");
        call(c1, "PING");
        assertThat(call(c1, "EXEC")).isEqualTo("*1\\r\\n+PONG\\r\\n");
    }

    @Test
    void removalOfKeyAlreadyExpiredWhenWatchedDoesNotAbort() {
        call(c1, "SET", "k", "v", "PX", "100");
        clock.advance(200);
        call(c1, "WATCH", "k");
        assertThat(call(c2, "GET", "k")).isEqualTo("$-1\\r\\n"); // removes it: no logical change
        call(c1, "MULTI");
        call(c1, "PING");
        assertThat(call(c1, "EXEC")).isEqualTo("*1\\r\\n+PONG\\r\\n");
    }

    @Test
    void keyAlreadyExpiredWhenWatchedThenRewrittenAborts() {
        call(c1, "SET", "k", "v", "PX", "100");
        clock.advance(200);
        call(c1, "WATCH", "k");
        call(c2, "SET", "k", "again");
        call(c1, "MULTI");
        call(c1, "PING");
        assertThat(call(c1, "EXEC")).isEqualTo("*-1\\r\\n");
    }

    /** Checked by hand on redis-server 7.0.15 with active expiry off: both watchers abort after a SET. */
    @Test
    void twoWatchersOfAnExpiredKeyBothAbortWhenItIsRewritten() {
        try (RespClient c3 = new RespClient(simulator.host(), simulator.port())) {
            call(c3, "SET", "k", "v", "PX", "100");
            clock.advance(200);
            call(c1, "WATCH", "k");
            call(c2, "WATCH", "k");
            call(c3, "SET", "k", "new");
            for (RespClient c : List.of(c1, c2)) {
                call(c, "MULTI");
                assertThat(call(c, "EXEC")).isEqualTo("*-1\\r\\n");
            }
        }
    }

    /** Checked by hand on redis-server 7.0.15 with active expiry off: DEL of the expired key changes nothing. */
    @Test
    void twoWatchersOfAnExpiredKeyBothSucceedWhenItIsDeleted() {
        try (RespClient c3 = new RespClient(simulator.host(), simulator.port())) {
            call(c3, "SET", "k", "v", "PX", "100");
            clock.advance(200);
            call(c1, "WATCH", "k");
            call(c2, "WATCH", "k");
            call(c3, "DEL", "k");
            for (RespClient c : List.of(c1, c2)) {
                call(c, "MULTI");
                assertThat(call(c, "EXEC")).isEqualTo("*0\\r\\n");
            }
        }
    }

    @Test
    void flushOfKeyAlreadyExpiredWhenWatchedDoesNotAbort() {
        call(c1, "SET", "k", "v", "PX", "100");
        clock.advance(200);
        call(c1, "WATCH", "k");
        call(c2, "FLUSHDB");
        call(c1, "MULTI");
        call(c1, "PING");
        assertThat(call(c1, "EXEC")).isEqualTo("*1\\r\\n+PONG\\r\\n");
    }

    @Test
    void flushOfKeyThatExpiredAfterWatchAborts() {
        call(c1, "SET", "k", "v", "PX", "100");
        call(c1, "WATCH", "k");
        clock.advance(200);
        call(c2, "FLUSHDB");
        call(c1, "MULTI");
        call(c1, "PING");
        assertThat(call(c1, "EXEC")).isEqualTo("*-1\\r\\n");
    }

    @Test
    void closingAConnectionReleasesItsWatches() throws Exception {
        call(c2, "WATCH", "a", "b");
        call(c2, "MULTI");
        call(c2, "SET", "a", "1");
        c2.close();
        // the engine forgets the connection when Netty reports it closed; each onEngine call is a turn of the
        // event loop, which handles the close in order (bounded)
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (simulator.onEngine(() -> simulator.engine().clients().size()) > 1 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(simulator.onEngine(() -> simulator.engine().clients().size())).isEqualTo(1);
        call(c1, "SET", "a", "2"); // touching a key nobody watches any more
        assertThat(call(c1, "GET", "a")).isEqualTo("$1\\r\\n2\\r\\n");
        c2 = new RespClient(simulator.host(), simulator.port());
    }

    // ---- CLIENT LIST fields, on both targets ----

    static List<RedisTarget> targets() {
        return List.of(SharedTargets.reference(), SharedTargets.simulator());
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void clientListShowsMultiQueueAndDirtyFlag(RedisTarget target) {
        try (RespClient a = new RespClient(target.host(), target.port());
             RespClient b = new RespClient(target.host(), target.port())) {
            String id = Long.toString(a.call("CLIENT", "ID").asLong());
            assertThat(line(b, id)).containsEntry("flags", "N").containsEntry("multi", "-1");
            a.call("WATCH", "tx:k");
            a.call("MULTI");
            assertThat(line(b, id)).containsEntry("flags", "x").containsEntry("multi", "0");
            a.call("SET", "tx:k", "1");
            a.call("GET", "tx:k");
            assertThat(line(b, id)).containsEntry("flags", "x").containsEntry("multi", "2");
            b.call("SET", "tx:k", "2");
            assertThat(line(b, id)).containsEntry("flags", "xd").containsEntry("multi", "2");
            a.call("INCR", "tx:k"); // not kept: the transaction can no longer succeed
            assertThat(line(b, id)).containsEntry("flags", "xd").containsEntry("multi", "2");
            assertThat(a.call("EXEC").toString()).isEqualTo("*-1\\r\\n");
            assertThat(line(b, id)).containsEntry("flags", "N").containsEntry("multi", "-1");
            a.call("WATCH", "tx:k");
            b.call("DEL", "tx:k");
            assertThat(line(b, id)).containsEntry("flags", "d").containsEntry("multi", "-1");
            a.call("UNWATCH");
            assertThat(line(b, id)).containsEntry("flags", "N");
        }
    }

    /** Calls, rejected and failed calls per command around transactions, without the timing figures. */
    @Test
    void commandStatisticsOfTransactionsMatchRedis() {
        Map<String, String> redis = commandStats(SharedTargets.reference());
        assertThat(redis).containsKeys("cmdstat_exec", "cmdstat_multi", "cmdstat_incr", "cmdstat_watch");
        assertThat(commandStats(SharedTargets.simulator())).isEqualTo(redis);
    }

    private static Map<String, String> commandStats(RedisTarget target) {
        try (RespClient a = new RespClient(target.host(), target.port());
             RespClient b = new RespClient(target.host(), target.port())) {
            a.call("CONFIG", "RESETSTAT");
            a.call("SET", "tx:s", "x");
            for (String[] command : new String[][] {
                    {"MULTI"}, {"NOSUCH"}, {"GET"}, {"GET", "tx:s"}, {"EXEC"}, {"EXEC"}, {"EXEC", "x"},
                    {"MULTI"}, {"INCR", "tx:s"}, {"LPUSH", "tx:s", "a"}, {"GET", "tx:s"}, {"EXEC"},
                    {"MULTI"}, {"SAVE"}, {"MULTI"}, {"WATCH", "tx:s"}, {"DISCARD"}, {"DISCARD"},
                    {"WATCH", "tx:s"}, {"UNWATCH"}, {"WATCH", "tx:s"}}) {
                a.call(command);
            }
            b.call("SET", "tx:s", "y");
            a.call("MULTI");
            a.call("GET", "tx:s");
            a.call("EXEC");
            a.call("DEL", "tx:s");
            Map<String, String> stats = new LinkedHashMap<>();
            for (String row : a.call("INFO", "commandstats").text().split("\r?\n")) {
                if (row.startsWith("cmdstat_") && !row.startsWith("cmdstat_config") && !row.startsWith("cmdstat_info")) {
                    int colon = row.indexOf(':');
                    stats.put(row.substring(0, colon), row.substring(colon + 1).replaceAll("usec=[^,]*,usec_per_call=[^,]*,", ""));
                }
            }
            return stats;
        }
    }

    private static Map<String, String> line(RespClient observer, String id) {
        String text = observer.call("CLIENT", "LIST", "ID", id).text();
        Map<String, String> fields = new LinkedHashMap<>();
        for (String part : text.strip().split(" ")) {
            int eq = part.indexOf('=');
            fields.put(part.substring(0, eq), part.substring(eq + 1));
        }
        return fields;
    }
}
