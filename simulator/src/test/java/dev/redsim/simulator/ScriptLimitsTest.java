package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Scripts cannot stop the server: a memory bound of their own (Redis's Lua fails with "not enough memory" when its
 * allocator does; here the heap is shared with the whole server), and a stop that comes through whatever script
 * runs. Real Redis cannot be compared here: it would grow until the machine runs out.
 */
class ScriptLimitsTest {
    private static final long LIMIT = 64L << 20;

    private static RedisSimulator bounded() {
        return RedisSimulator.builder().scriptMemoryLimit(LIMIT).start();
    }

    @Test
    void aScriptThatFillsMemoryFailsAndTheServerGoesOn() throws IOException {
        try (RedisSimulator redis = bounded(); TinyClient client = new TinyClient(redis)) {
            String reply = client.call("EVAL \"local t={} for i=1,1e5 do t[#t+1]=string.rep('x',1e6)..i end "
                    + "return #t\" 0");
            assertThat(reply).matches("-ERR Error running script [0-9a-f]{40}, not enough memory");
            assertThat(client.call("PING")).isEqualTo("+PONG");
            assertThat(client.call("EVAL \"return #string.rep('x', 1e6)\" 0")).isEqualTo(":1000000");
        }
    }

    @Test
    void pcallCannotHoldOnToAScriptOutOfMemory() throws IOException {
        try (RedisSimulator redis = bounded(); TinyClient client = new TinyClient(redis)) {
            String reply = client.call("EVAL \"local ok = pcall(function() local t = {} for i = 1, 1e5 do "
                    + "t[i] = string.rep('y', 1e6) .. i end end) local n = 0 for i = 1, 1e4 do n = n + i end "
                    + "return 'survived'\" 0");
            assertThat(reply).endsWith("not enough memory");
        }
    }

    @Test
    void doublingAStringOrOneHugeRepFailsAtOnce() throws IOException {
        try (RedisSimulator redis = bounded(); TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("EVAL \"local s = 'x' for i = 1, 40 do s = s .. s end return #s\" 0"))
                    .endsWith("not enough memory");
            assertThat(client.call("EVAL \"return #string.rep('x', 1e9)\" 0")).endsWith("not enough memory");
            assertThat(client.call("EVAL \"return #string.rep('x', 1e7)\" 0")).isEqualTo(":10000000");
        }
    }

    @Test
    void garbageIsNotHeldAgainstAScript() throws IOException {
        // five times the bound in all, never more than one megabyte alive; a small bound keeps the full
        // collections it takes few and short on a loaded machine (64 MB took over 5 s at load average 5.6)
        try (RedisSimulator redis = RedisSimulator.builder().scriptMemoryLimit(16L << 20).start();
                TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("EVAL \"local n = 0 for i = 1, 80 do local s = string.rep('z', 1e6) .. i "
                    + "n = n + 1 end return n\" 0")).isEqualTo(":80");
        }
    }

    @Test
    void coroutinesNestBoundedAndLeaveNoThreadsBehind() throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (RedisSimulator redis = RedisSimulator.start(); TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("EVAL \"return 1\" 0")).isEqualTo(":1"); // the Lua state and script thread exist
            int before = threads.getThreadCount();
            // a self-resuming script: Lua stops it 200 C levels deep (luaj made a thread per level, without end)
            assertThat(client.call("EVAL \"local n = 0 local function f() n = n + 1 "
                    + "coroutine.resume(coroutine.create(f)) end f() return n\" 0")).isEqualTo(":200");
            assertThat(client.call("EVAL \"local cos = {} for i = 1, 2000 do local co = coroutine.create("
                    + "function() coroutine.yield(i) end) coroutine.resume(co) cos[i] = co end return #cos\" 0"))
                    .isEqualTo(":2000");
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (threads.getThreadCount() > before + 2 && System.nanoTime() < deadline) {
                Thread.yield(); // the released coroutine threads end on their own, each at its interrupt
            }
            assertThat(threads.getThreadCount()).isLessThanOrEqualTo(before + 2);
        }
    }

    @Test
    void closeStopsAScriptThatNeverEndsInsideExec() throws IOException {
        RedisSimulator redis = RedisSimulator.start();
        try (TinyClient client = new TinyClient(redis)) {
            client.call("MULTI");
            client.call("EVAL \"local i = 0 while true do i = i + 1 end\" 0");
            client.send("EXEC"); // inside EXEC a script never goes busy: the engine waits for it
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!redis.scriptRunner().scriptRunning() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(redis.scriptRunner().scriptRunning()).isTrue();
            assertTimeoutPreemptively(Duration.ofSeconds(15), redis::close);
        }
    }
}
