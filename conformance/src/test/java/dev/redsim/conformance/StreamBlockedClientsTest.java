package dev.redsim.conformance;

import dev.redsim.conformance.resp.BlockedClientsProbe;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocked stream readers as other clients see them, on redis-server and on the simulator alike: CLIENT UNBLOCK of
 * XREAD and XREADGROUP, the command and error statistics of readers served, failed and timed out, and the 1000
 * entries a blocked reader without COUNT is served at most. These need client ids or large replies, so they are
 * compared here rather than in a scenario file.
 */
class StreamBlockedClientsTest {
    interface Session {
        void run(RespClient admin, RespClient blocked, List<String> seen);
    }

    /** Runs the same session on both targets; returns what each showed. */
    private static List<List<String>> onBoth(Session session) {
        List<List<String>> results = new ArrayList<>();
        for (RedisTarget target : new RedisTarget[] {SharedTargets.reference(), SharedTargets.simulator()}) {
            try (RespClient admin = new RespClient(target.host(), target.port());
                 RespClient blocked = new RespClient(target.host(), target.port())) {
                admin.call("FLUSHALL");
                BlockedClientsProbe.require(admin, 0);
                admin.call("CONFIG", "RESETSTAT");
                List<String> seen = new ArrayList<>();
                session.run(admin, blocked, seen);
                results.add(seen);
                admin.call("FLUSHALL");
            }
        }
        return results;
    }

    private static byte[][] args(String... words) {
        byte[][] out = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            out[i] = words[i].getBytes();
        }
        return out;
    }

    /** calls, rejected_calls and failed_calls in name order (usec left out: timing), then the errorstats. */
    private static String stats(RespClient admin, String... commands) {
        List<String> lines = new ArrayList<>();
        for (String line : admin.call("INFO", "commandstats").text().split("\r\n")) {
            for (String command : commands) {
                if (line.startsWith("cmdstat_" + command + ":")) {
                    lines.add(line.replaceAll("usec=[0-9]+,usec_per_call=[0-9.]+,", ""));
                }
            }
        }
        java.util.Collections.sort(lines);
        return String.join("\n", lines) + "\n" + admin.call("INFO", "errorstats").text();
    }

    @Test
    void clientUnblockWakesStreamReadersWithATimeoutOrAnError() {
        List<List<String>> results = onBoth((admin, blocked, seen) -> {
            long id = blocked.call("CLIENT", "ID").asLong();
            admin.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
            blocked.send(args("XREAD", "BLOCK", "0", "STREAMS", "s", "$"));
            BlockedClientsProbe.require(admin, 1);
            seen.add("timeout: " + admin.call("CLIENT", "UNBLOCK", Long.toString(id), "TIMEOUT"));
            seen.add("woken with: " + blocked.read());
            blocked.send(args("XREADGROUP", "GROUP", "g", "alice", "BLOCK", "100000", "STREAMS", "s", ">"));
            BlockedClientsProbe.require(admin, 1);
            seen.add("error: " + admin.call("CLIENT", "UNBLOCK", Long.toString(id), "ERROR"));
            seen.add("woken with: " + blocked.read());
            seen.add("consumers: " + admin.call("XINFO", "GROUPS", "s"));
            // (CLIENT UNBLOCK ... ERROR itself counts as a failed call on Redis, whose call() sees the error reply
            // it made another client send; the simulator does not count it, for every blocking command alike)
            seen.add(stats(admin, "xread", "xreadgroup"));
        });
        assertThat(results.get(1)).isEqualTo(results.get(0));
        assertThat(results.get(0)).contains("woken with: *-1\\r\\n");
    }

    @Test
    void statsOfStreamReadersServedFailedAndTimedOut() {
        List<List<String>> results = onBoth((admin, blocked, seen) -> {
            admin.call("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM");
            blocked.send(args("XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">"));
            BlockedClientsProbe.require(admin, 1);
            admin.call("XADD", "s", "1", "a", "1");
            seen.add("served: " + blocked.read());
            blocked.send(args("XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">"));
            BlockedClientsProbe.require(admin, 1);
            admin.call("XGROUP", "DESTROY", "s", "g");
            seen.add("group destroyed: " + blocked.read());
            admin.call("XGROUP", "CREATE", "s", "g", "$");
            blocked.send(args("XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">"));
            BlockedClientsProbe.require(admin, 1);
            admin.call("DEL", "s");
            seen.add("stream deleted: " + blocked.read());
            blocked.send(args("XREAD", "BLOCK", "10", "STREAMS", "s", "$"));
            seen.add("timed out: " + blocked.read());
            seen.add(stats(admin, "xread", "xreadgroup", "xadd", "xgroup|destroy", "del"));
        });
        assertThat(results.get(1)).isEqualTo(results.get(0));
    }

    @Test
    void aBlockedReaderWithoutCountIsServedAtMostAThousandEntries() {
        List<List<String>> results = onBoth((admin, blocked, seen) -> {
            String addMany = "for i = 1, tonumber(ARGV[1]) do redis.call('XADD', KEYS[1], i, 'n', i) end return 1";
            blocked.send(args("XREAD", "BLOCK", "0", "STREAMS", "s", "$"));
            BlockedClientsProbe.require(admin, 1);
            admin.call("EVAL", addMany, "1", "s", "1200");
            RespValue served = blocked.read();
            List<RespValue> entries = served.children().get(0).children().get(1).children();
            seen.add("served " + entries.size() + ", first " + entries.get(0).children().get(0).text() + ", last "
                    + entries.get(entries.size() - 1).children().get(0).text());
            blocked.send(args("XREAD", "COUNT", "5000", "BLOCK", "0", "STREAMS", "s2", "$"));
            BlockedClientsProbe.require(admin, 1);
            admin.call("EVAL", addMany, "1", "s2", "1200");
            seen.add("with COUNT 5000: " + blocked.read().children().get(0).children().get(1).children().size());
            blocked.send(args("XREAD", "STREAMS", "s", "0"));
            seen.add("not blocked: " + blocked.read().children().get(0).children().get(1).children().size());
        });
        assertThat(results.get(1)).isEqualTo(results.get(0));
        assertThat(results.get(0).get(0)).isEqualTo("served 1000, first 1-0, last 1000-0");
    }
}
