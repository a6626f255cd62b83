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
    void provablyShortScriptsRunOnTheEngineThreadOthersOnTheScriptThread() throws IOException {
        try (RedisSimulator redis = RedisSimulator.start(); TinyClient client = new TinyClient(redis)) {
            String scriptThread = "redsim-script-" + redis.port();
            assertThat(client.call("EVAL \"return redis.call('SET', KEYS[1], ARGV[1])\" 1 k v")).isEqualTo("+OK");
            assertThat(client.call("EVAL \"return redis.call('GET', KEYS[1]) .. ARGV[1]:upper()\" 1 k w"))
                    .isEqualTo("vW");
            assertThat(threadNames()).doesNotContain(scriptThread);
            assertThat(client.call("EVAL \"local n = 0 for i = 1, 3 do n = n + i end return n\" 0")).isEqualTo(":6");
            assertThat(threadNames()).contains(scriptThread);
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
