package dev.redsim.conformance;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scripts that run past lua-time-limit (busy-reply-threshold), on real Redis and on the simulator: -BUSY for
 * everyone else, the commands still allowed, SCRIPT KILL and its refusals, and the caller's reply and pipeline
 * once the script ends. The limit is set to 10 ms; tests wait for the busy state by asking (PING until -BUSY,
 * within a deadline), never by sleeping. Scripts either loop until killed or run a bounded loop.
 */
class BusyScriptTest {
    private static final String BUSY = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    private static final String BUSY_FUNCTION =
            "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";
    private static final String UNKILLABLE = "UNKILLABLE Sorry the script already executed write commands against the "
            + "dataset. You can either wait the script termination or kill the server in a hard way using the "
            + "SHUTDOWN NOSAVE command.";
    private static final String NOTBUSY = "NOTBUSY No scripts in execution right now.";
    /** Reads its key first (a read is still killable), then loops until SCRIPT KILL. */
    private static final String ENDLESS = "redis.call('GET', KEYS[1])\nlocal i = 0\nwhile i >= 0 do i = i + 1 end\nreturn i";
    /** Writes, then loops a bounded while: long enough to be seen busy, short enough for a test on both servers. */
    private static final String WRITES_THEN_LOOPS = "redis.call('SET', KEYS[1], 'during')\nlocal i = 0\n"
            + "while i < 30000000 do i = i + 1 end\nreturn i";

    @AcrossTargets
    void otherClientsGetBusyAndScriptKillEndsTheScript(RedisTarget target) {
        try (Busy busy = new Busy(target)) {
            busy.admin.call("SET", "busy:key", "before");
            busy.caller.send(bytes("EVAL", ENDLESS, "1", "busy:key"));
            assertThat(busy.awaitBusy()).isEqualTo(BUSY);
            assertThat(busy.admin.call("GET", "busy:key").text()).isEqualTo(BUSY);
            assertThat(busy.admin.call("SCRIPT", "FLUSH").text()).isEqualTo(BUSY);
            assertThat(busy.admin.call("SCRIPT", "KILL").text()).isEqualTo("OK");
            assertThat(busy.caller.read().text()).isEqualTo("ERR Script killed by user with SCRIPT KILL... script: "
                    + sha1(ENDLESS) + ", on @user_script:3.");
            assertThat(busy.admin.call("SCRIPT", "KILL").text()).isEqualTo(NOTBUSY);
            assertThat(busy.admin.call("PING").text()).isEqualTo("PONG");
            assertThat(busy.admin.call("GET", "busy:key").text()).isEqualTo("before");
            assertThat(busy.caller.call("PING").text()).isEqualTo("PONG");
        }
    }

    @AcrossTargets
    void scriptKillWithNothingRunningIsNotBusy(RedisTarget target) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            assertThat(client.call("SCRIPT", "KILL").text()).isEqualTo(NOTBUSY);
        }
    }

    @AcrossTargets
    void aScriptThatWroteCannotBeKilledAndEndsNormally(RedisTarget target) {
        try (Busy busy = new Busy(target)) {
            busy.admin.call("SET", "busy:key", "before");
            busy.caller.send(bytes("EVAL", WRITES_THEN_LOOPS, "1", "busy:key"));
            assertThat(busy.awaitBusy()).isEqualTo(BUSY);
            assertThat(busy.admin.call("SCRIPT", "KILL").text()).isEqualTo(UNKILLABLE);
            assertThat(busy.caller.read().asLong()).isEqualTo(30_000_000L);
            assertThat(busy.admin.call("GET", "busy:key").text()).isEqualTo("during");
            assertThat(busy.admin.call("SCRIPT", "KILL").text()).isEqualTo(NOTBUSY);
        }
    }

    @AcrossTargets
    void transactionAndConnectionCommandsStillRunWhileBusy(RedisTarget target) {
        try (Busy busy = new Busy(target)) {
            busy.caller.send(bytes("EVAL", ENDLESS, "1", "busy:key"));
            assertThat(busy.awaitBusy()).isEqualTo(BUSY);
            RespClient admin = busy.admin;
            assertThat(admin.call("WATCH", "busy:key").text()).isEqualTo("OK");
            assertThat(admin.call("UNWATCH").text()).isEqualTo("OK");
            assertThat(admin.call("DISCARD").text()).isEqualTo("ERR DISCARD without MULTI");
            assertThat(admin.call("MULTI").text()).isEqualTo("OK");
            assertThat(admin.call("SET", "busy:key", "queued").text()).isEqualTo(BUSY);
            assertThat(admin.call("EXEC").text()).isEqualTo("EXECABORT Transaction discarded because of: " + BUSY);
            assertThat(admin.call("AUTH", "nopass").text()).startsWith("ERR AUTH <password> called without any password");
            assertThat(admin.call("HELLO", "2").isError()).isFalse();
            assertThat(admin.call("RESET").text()).isEqualTo("RESET");
            assertThat(admin.call("INFO").text()).isEqualTo(BUSY);
            assertThat(admin.call("SCRIPT", "KILL").text()).isEqualTo("OK");
            assertThat(busy.caller.read().text()).startsWith("ERR Script killed by user with SCRIPT KILL...");
        }
    }

    @AcrossTargets
    void theCallersPipelineRunsAfterItsScript(RedisTarget target) {
        try (Busy busy = new Busy(target)) {
            busy.admin.call("DEL", "busy:key");
            busy.caller.sendRaw(concat(resp("EVAL", ENDLESS, "1", "busy:key"), resp("SET", "busy:key", "after"),
                    resp("GET", "busy:key")));
            assertThat(busy.awaitBusy()).isEqualTo(BUSY);
            assertThat(busy.admin.call("EXISTS", "busy:key").text()).isEqualTo(BUSY);
            assertThat(busy.admin.call("SCRIPT", "KILL").text()).isEqualTo("OK");
            assertThat(busy.caller.read().text()).startsWith("ERR Script killed by user with SCRIPT KILL...");
            assertThat(busy.caller.read().text()).isEqualTo("OK");
            assertThat(busy.caller.read().text()).isEqualTo("after");
            assertThat(busy.admin.call("GET", "busy:key").text()).isEqualTo("after");
        }
    }

    @AcrossTargets
    void aBusyFunctionIsStoppedByFunctionKillOnly(RedisTarget target) {
        String library = "#!lua name=busylib\nredis.register_function('endless', function(keys)\n"
                + "  redis.call('GET', keys[1])\n  local i = 0\n  while i >= 0 do i = i + 1 end\n  return i\nend)";
        try (Busy busy = new Busy(target)) {
            busy.admin.call("FUNCTION", "LOAD", "REPLACE", library);
            busy.caller.send(bytes("FCALL", "endless", "1", "busy:key"));
            assertThat(busy.awaitBusy()).isEqualTo(BUSY_FUNCTION);
            assertThat(busy.admin.call("GET", "busy:key").text()).isEqualTo(BUSY_FUNCTION);
            assertThat(busy.admin.call("SCRIPT", "KILL").text()).isEqualTo(BUSY_FUNCTION);
            List<RespValue> stats = busy.admin.call("FUNCTION", "STATS").children();
            assertThat(stats.get(0).text()).isEqualTo("running_script");
            List<RespValue> running = stats.get(1).children();
            assertThat(running.get(0).text()).isEqualTo("name");
            assertThat(running.get(1).text()).isEqualTo("endless");
            assertThat(running.get(3).children()).extracting(RespValue::text)
                    .containsExactly("FCALL", "endless", "1", "busy:key");
            assertThat(running.get(4).text()).isEqualTo("duration_ms");
            assertThat(running.get(5).asLong()).isNotNegative();
            assertThat(busy.admin.call("FUNCTION", "KILL").text()).isEqualTo("OK");
            // Redis 7.0 words the kill of a function as SCRIPT KILL's; lines count from the shebang line
            assertThat(busy.caller.read().text()).isEqualTo(
                    "ERR Script killed by user with SCRIPT KILL... script: endless, on @user_function:5.");
            assertThat(busy.admin.call("FUNCTION", "KILL").text()).isEqualTo(NOTBUSY);
            assertThat(busy.caller.call("PING").text()).isEqualTo("PONG");
            busy.admin.call("FUNCTION", "DELETE", "busylib");
        }
    }

    @AcrossTargets
    void functionKillDoesNotStopAnEvalScript(RedisTarget target) {
        try (Busy busy = new Busy(target)) {
            busy.caller.send(bytes("EVAL", ENDLESS, "1", "busy:key"));
            assertThat(busy.awaitBusy()).isEqualTo(BUSY);
            assertThat(busy.admin.call("FUNCTION", "KILL").text()).isEqualTo(BUSY);
            assertThat(busy.admin.call("FUNCTION", "STATS").text()).isEqualTo(BUSY);
            assertThat(busy.admin.call("SCRIPT", "KILL").text()).isEqualTo("OK");
            assertThat(busy.caller.read().text()).startsWith("ERR Script killed by user with SCRIPT KILL...");
        }
    }

    @AcrossTargets
    void deepRecursionIsLuasStackOverflowAndTheServerGoesOn(RedisTarget target) {
        String script = "local function f(n) return 1 + f(n + 1) end\nreturn f(1)";
        try (RespClient client = new RespClient(target.host(), target.port())) {
            RespValue reply = client.call("EVAL", script, "0");
            assertThat(reply.text()).isEqualTo("ERR user_script:1: stack overflow script: " + sha1(script)
                    + ", on @user_script:1.");
            assertThat(client.call("PING").text()).isEqualTo("PONG");
        }
    }

    /** A caller and an admin connection, with lua-time-limit at 10 ms until closed (then back to 5000). */
    private static final class Busy implements AutoCloseable {
        final RespClient admin;
        final RespClient caller;

        Busy(RedisTarget target) {
            admin = new RespClient(target.host(), target.port());
            caller = new RespClient(target.host(), target.port());
            admin.call("CONFIG", "SET", "lua-time-limit", "10");
        }

        /** PINGs until the server answers -BUSY (the caller's script passed the limit); returns that answer. */
        String awaitBusy() {
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < deadline) {
                RespValue reply = admin.call("PING");
                if (reply.isError()) {
                    return reply.text();
                }
            }
            return "never busy";
        }

        @Override
        public void close() {
            try {
                // A failed test must not leave an endless script behind on the shared server.
                for (int i = 0; i < 100 && admin.call("SCRIPT", "KILL").text().startsWith("UNKILLABLE"); i++) {
                    admin.call("PING");
                }
                admin.call("CONFIG", "SET", "lua-time-limit", "5000");
            } finally {
                caller.close();
                admin.close();
            }
        }
    }

    private static byte[][] bytes(String... words) {
        byte[][] out = new byte[words.length][];
        for (int i = 0; i < words.length; i++) {
            out[i] = words[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    private static byte[] resp(String... words) {
        StringBuilder out = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            out.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word).append("\r\n");
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static String sha1(String script) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(script.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
