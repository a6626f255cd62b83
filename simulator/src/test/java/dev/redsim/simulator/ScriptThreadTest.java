package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's script thread and busy mode beyond what real Redis can be compared on: recursion that would
 * overflow a JVM stack, a caller that disconnects during its busy script, time frozen during a script.
 */
class ScriptThreadTest {
    @Test
    void scriptsRunOnTheEngineThreadUntilTheyRunLong() throws IOException {
        try (RedisSimulator redis = RedisSimulator.start(); TinyClient client = new TinyClient(redis)) {
            String scriptThread = "redsim-script-" + redis.port();
            assertThat(client.call("EVAL \"return redis.call('SET', KEYS[1], ARGV[1])\" 1 k v")).isEqualTo("+OK");
            assertThat(client.call("EVAL \"return redis.call('GET', KEYS[1]) .. ARGV[1]:upper()\" 1 k w"))
                    .isEqualTo("vW");
            assertThat(client.call("EVAL \"local n = 0 for i = 1, 3 do n = n + i end return n\" 0")).isEqualTo(":6");
            assertThat(threadNames()).doesNotContain(scriptThread);
            // far past the engine thread's budget (at most lua-time-limit): it moves, its INCR runs once
            client.call("CONFIG SET lua-time-limit 10");
            assertThat(client.call("EVAL \"local n = redis.call('INCR', KEYS[1]) local i = 0 "
                    + "while i < 3000000 do i = i + 1 end return n\" 1 counter")).isEqualTo(":1");
            assertThat(threadNames()).contains(scriptThread);
            assertThat(client.call("GET counter")).isEqualTo("1");
        }
    }

    /**
     * A known difference (decision 0030): a script that leaves the engine thread is run again from its start with
     * its earlier commands' replies; when it then asks for another command than it did (here because a table's
     * address differs between the two runs), it ends with an error and its commands so far stay applied.
     */
    @Test
    void aScriptThatAsksForOtherCommandsWhenRunAgainEndsWithAnError() throws IOException {
        try (RedisSimulator redis = RedisSimulator.start(); TinyClient client = new TinyClient(redis)) {
            client.call("CONFIG SET lua-time-limit 10");
            assertThat(client.call("EVAL \"redis.call('SET', KEYS[1], tostring({})) local i = 0 "
                    + "while i < 3000000 do i = i + 1 end return redis.call('GET', KEYS[1])\" 1 k"))
                    .startsWith("-ERR Error running script ").contains("it took another path (call 1 of 1 differs)");
            assertThat(client.call("GET k")).startsWith("table: ");
            assertThat(client.call("PING")).isEqualTo("+PONG");
        }
    }

    private static java.util.Set<String> threadNames() {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            names.add(thread.getName());
        }
        return names;
    }

    @Test
    void recursionThroughPcallAndLibraryCallbacksFailsCleanly() throws IOException {
        try (RedisSimulator redis = RedisSimulator.start(); TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("EVAL \"local function f() local ok = pcall(f) return ok end return f() and 1 or 0\" 0"))
                    .matches(":[01]|-ERR.*");
            assertThat(client.call("EVAL \"local function f(s) return (string.gsub(s, '.', f)) end return f('a')\" 0"))
                    .startsWith("-ERR");
            assertThat(client.call("PING")).isEqualTo("+PONG");
            assertThat(client.call("EVAL \"return redis.call('PING')\" 0")).isEqualTo("+PONG");
        }
    }

    @Test
    void aCallerThatLeavesDuringItsBusyScriptLeavesTheServerServing() throws IOException {
        try (RedisSimulator redis = RedisSimulator.start(); TinyClient admin = new TinyClient(redis)) {
            admin.call("CONFIG SET lua-time-limit 10");
            try (Socket caller = new Socket(redis.host(), redis.port())) {
                OutputStream out = caller.getOutputStream();
                out.write("EVAL \"local i = 0 while i >= 0 do i = i + 1 end\" 0\r\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                awaitBusy(admin);
            }
            assertThat(admin.call("SCRIPT KILL")).isEqualTo("+OK");
            assertThat(admin.call("SET k v")).isEqualTo("+OK");
            assertThat(admin.call("GET k")).isEqualTo("v");
        }
    }

    @Test
    void frozenSimulatorTimeDoesNotStopTheLimit() throws IOException {
        try (RedisSimulator redis = RedisSimulator.start(); TinyClient admin = new TinyClient(redis);
             TinyClient caller = new TinyClient(redis)) {
            redis.freezeTime();
            admin.call("CONFIG SET busy-reply-threshold 10");
            assertThat(admin.call("CONFIG GET lua-time-limit")).isEqualTo("*2");
            assertThat(admin.readLine() + " " + admin.readLine()).isEqualTo("lua-time-limit 10"); // an alias
            caller.send("EVAL \"local i = 0 while i >= 0 do i = i + 1 end\" 0");
            awaitBusy(admin);
            assertThat(admin.call("SCRIPT KILL")).isEqualTo("+OK");
            assertThat(caller.readLine()).startsWith("-ERR Script killed by user with SCRIPT KILL...");
        }
    }

    private static void awaitBusy(TinyClient admin) throws IOException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (admin.call("PING").startsWith("-BUSY")) {
                return;
            }
        }
        throw new AssertionError("the script never made the server busy");
    }
}
