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
 * What other clients see of a blocked one, on real Redis and on the simulator alike: CLIENT UNBLOCK (TIMEOUT and
 * ERROR), the 'b' flag of CLIENT LIST, INFO's blocked_clients and clients_in_timeout_table. These need the
 * blocked client's id, which differs between servers, so they are compared here rather than in a scenario.
 */
class BlockedClientsAdminTest {
    private static RedisTarget[] targets() {
        return new RedisTarget[] {SharedTargets.reference(), SharedTargets.simulator()};
    }

    /** Runs the same session on both targets and returns the observations of each. */
    private static List<List<String>> onBoth(Session session) throws Exception {
        List<List<String>> results = new ArrayList<>();
        for (RedisTarget target : targets()) {
            try (RespClient admin = new RespClient(target.host(), target.port());
                 RespClient blocked = new RespClient(target.host(), target.port())) {
                admin.call("FLUSHALL");
                awaitBlocked(admin, 0);
                List<String> seen = new ArrayList<>();
                session.run(admin, blocked, seen);
                results.add(seen);
            }
        }
        return results;
    }

    interface Session {
        void run(RespClient admin, RespClient blocked, List<String> seen) throws Exception;
    }

    static void awaitBlocked(RespClient admin, int count) {
        BlockedClientsProbe.require(admin, count);
    }

    private static byte[][] args(String... words) {
        byte[][] out = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            out[i] = words[i].getBytes();
        }
        return out;
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return line;
            }
        }
        return name + ": missing";
    }

    private static String flagsOf(RespClient admin, long id) {
        String line = admin.call("CLIENT", "LIST", "ID", Long.toString(id)).text();
        int at = line.indexOf(" flags=");
        return line.substring(at + 1, line.indexOf(' ', at + 1));
    }

    /** calls, rejected_calls and failed_calls of some commands (usec left out: timing), and the errorstats. */
    private static String commandStats(RespClient admin, String... commands) {
        StringBuilder out = new StringBuilder();
        String stats = admin.call("INFO", "commandstats").text();
        for (String command : commands) {
            for (String line : stats.split("\r\n")) {
                if (line.startsWith("cmdstat_" + command + ":")) {
                    out.append(command).append(' ').append(line.replaceAll("usec=[0-9]+,usec_per_call=[0-9.]+,", ""))
                            .append('\n');
                }
            }
        }
        return out + admin.call("INFO", "errorstats").text();
    }

    @Test
    void clientUnblockWakesWithATimeoutOrAnError() throws Exception {
        List<List<String>> results = onBoth((admin, blocked, seen) -> {
            admin.call("CONFIG", "RESETSTAT");
            long id = blocked.call("CLIENT", "ID").asLong();
            seen.add("not blocked: " + admin.call("CLIENT", "UNBLOCK", Long.toString(id)));
            blocked.send(args("BLPOP", "q", "0"));
            awaitBlocked(admin, 1);
            seen.add(flagsOf(admin, id));
            seen.add(field(admin.call("INFO", "clients").text(), "clients_in_timeout_table"));
            seen.add("timeout: " + admin.call("CLIENT", "UNBLOCK", Long.toString(id), "TIMEOUT"));
            seen.add("woken with: " + blocked.read());
            seen.add(flagsOf(admin, id));
            blocked.send(args("BRPOPLPUSH", "a", "b", "100"));
            awaitBlocked(admin, 1);
            seen.add(field(admin.call("INFO", "clients").text(), "clients_in_timeout_table"));
            seen.add("error: " + admin.call("CLIENT", "UNBLOCK", Long.toString(id), "error"));
            seen.add("woken with: " + blocked.read());
            blocked.send(args("BLMPOP", "0", "1", "a", "LEFT"));
            blocked.send(args("PING"));
            awaitBlocked(admin, 1);
            seen.add("default: " + admin.call("CLIENT", "UNBLOCK", Long.toString(id)));
            seen.add("woken with: " + blocked.read());
            seen.add("then: " + blocked.read());
            seen.add(field(admin.call("INFO", "clients").text(), "blocked_clients"));
            seen.add("unknown id: " + admin.call("CLIENT", "UNBLOCK", "999999"));
            seen.add("bad reason: " + admin.call("CLIENT", "UNBLOCK", Long.toString(id), "LATER"));
            seen.add("bad id: " + admin.call("CLIENT", "UNBLOCK", "x"));
            seen.add("list after: " + admin.call("RPUSH", "a", "v") + " " + admin.call("LLEN", "a"));
            seen.add(commandStats(admin, "blpop", "brpoplpush", "blmpop"));
        });
        assertThat(results.get(1)).isEqualTo(results.get(0));
        assertThat(results.get(0)).contains("flags=b", "woken with: *-1\\r\\n");
    }

    /**
     * A pipeline that wakes a client finishes before the woken client's own queued commands run (Redis runs them
     * before the event loop sleeps, not in the middle of another client's pipeline).
     */
    @Test
    void aWokenClientsQueuedCommandsRunAfterThePipelineThatWokeIt() throws Exception {
        List<List<String>> results = onBoth((admin, blocked, seen) -> {
            blocked.sendRaw("*3\r\n$5\r\nBLPOP\r\n$1\r\nq\r\n$1\r\n0\r\n*3\r\n$5\r\nBLPOP\r\n$1\r\nq\r\n$1\r\n0\r\n"
                    .getBytes());
            awaitBlocked(admin, 1);
            admin.sendRaw("*4\r\n$5\r\nRPUSH\r\n$1\r\nq\r\n$1\r\na\r\n$1\r\nb\r\n*2\r\n$4\r\nLLEN\r\n$1\r\nq\r\n"
                    .getBytes());
            seen.add("pushed: " + admin.read());
            seen.add("length seen by the pipeline: " + admin.read());
            seen.add("first pop: " + blocked.read());
            seen.add("queued pop: " + blocked.read());
            seen.add("left: " + admin.call("LLEN", "q"));
        });
        assertThat(results.get(1)).isEqualTo(results.get(0));
        assertThat(results.get(0)).contains("length seen by the pipeline: :1\\r\\n");
    }

    /** Served with an error (a BLMOVE destination of another type), timed out, or served: the stats Redis keeps. */
    @Test
    void statsOfServedAndTimedOutBlockedCommands() throws Exception {
        List<List<String>> results = onBoth((admin, blocked, seen) -> {
            admin.call("CONFIG", "RESETSTAT");
            blocked.send(args("BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"));
            awaitBlocked(admin, 1);
            admin.call("SET", "dst", "string");
            admin.call("RPUSH", "src", "a");
            seen.add("served: " + blocked.read());
            blocked.send(args("BZPOPMIN", "z", "0.01"));
            seen.add("timed out: " + blocked.read());
            blocked.send(args("BRPOP", "l", "0"));
            awaitBlocked(admin, 1);
            admin.call("RPUSH", "l", "x");
            seen.add("served: " + blocked.read());
            seen.add(commandStats(admin, "blmove", "bzpopmin", "brpop", "rpush", "set"));
        });
        assertThat(results.get(1)).isEqualTo(results.get(0));
    }
}
