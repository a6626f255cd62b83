package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded fuzzing of the script engine: several thousand Lua sources (a corpus of scripts that probe the sandbox,
 * mutated, spliced and mixed with token soup), library sources, and mutated or random binary chunks, each sent to a
 * simulator while a second simulator in the same JVM looks on. After every script the server answers (a script
 * that runs on is killed, an unkillable one ends with the simulator), the caller's connection is still in step
 * (its next PING gets +PONG); every hundred scripts, and at the end, a probe of the sandbox (every global, every
 * library member, the string metatable, the missing-global error) answers as on a fresh server, on both
 * simulators. At the end, no thread the scripts started is left and the heap is back where it was.
 *
 * <p>Replay a failure with the seed it prints: -Dredsim.scriptFuzz.seed=N (and .count=N for a longer run).
 */
class ScriptFuzzTest {
    private static final long SEED = Long.getLong("redsim.scriptFuzz.seed", 20261123L);
    private static final int COUNT = Integer.getInteger("redsim.scriptFuzz.count", 5000);
    /** How long the caller waits for a script's reply before asking for SCRIPT KILL / FUNCTION KILL. */
    private static final int PATIENCE_MILLIS = 150;

    private static final String PROBE = "local names = {} "
            + "for k, v in pairs(_G) do names[#names + 1] = tostring(k) .. ':' .. type(v) end "
            + "for _, lib in ipairs({'string', 'table', 'math', 'redis', 'cjson', 'bit', 'struct', 'cmsgpack', "
            + "'coroutine'}) do for k, v in pairs(_G[lib]) do names[#names + 1] = lib .. '.' .. tostring(k) .. ':' "
            + ".. type(v) end end "
            + "names[#names + 1] = 'strmeta:' .. tostring(getmetatable('').__index == string) "
            + "names[#names + 1] = 'upper:' .. ('abc'):upper() .. string.rep('x', 3) "
            + "names[#names + 1] = 'missing:' .. tostring(select(2, pcall(function() return no_such_global end))) "
            + "names[#names + 1] = 'rawset:' .. tostring(pcall(rawset, _G, 'x', 1)) "
            + "names[#names + 1] = 'call:' .. tostring(redis.call('PING')['ok']) "
            + "table.sort(names) return names";

    private static final String[] CORPUS = {
            "return redis.call('SET', KEYS[1], ARGV[1])",
            "return redis.call('GET', KEYS[1])",
            "local n = redis.call('INCR', 'fuzz:n') return {n, ARGV[2], #KEYS}",
            "local t = {} for i = 1, 20 do t[i] = i * 2 end return t",
            "local s = '' for i = 1, 10 do s = s .. i end return s",
            "return pcall(error, {err = 'x'})",
            "return redis.pcall('NOSUCH')",
            "return {err = 'custom'}",
            "return {ok = 'fine'}",
            "redis.setresp(3) return {map = {a = 1, b = {set = {x = true}}}, double = 1.5}",
            "return cjson.encode({a = {1, 2, 3}, b = 'x'})",
            "return cjson.decode('{\"a\":[1,2,{\"b\":null}]}')['a'][3]['b'] == cjson.null",
            "return cmsgpack.unpack(cmsgpack.pack({1, 2, 'x'}))",
            "return struct.unpack('>I2', struct.pack('>I2', 513))",
            "return bit.tohex(bit.bxor(255, 15))",
            "local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b end) "
                    + "return {coroutine.resume(co, 1)}",
            "local f = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end) return f() + f()",
            "return setmetatable({}, {__index = function(t, k) return k end})[5]",
            "local t = setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, v * 2) end}) t.a = 2 return t.a",
            "return getmetatable('').__index == string",
            "return rawset(_G, 'leak', 1)",
            "leak = 1 return leak",
            "string.rep = nil return 1",
            "redis.call = function() return 'pwned' end return 1",
            "return loadstring('return 1 + 1')()",
            "return loadstring(string.dump(function() return 1 end))",
            "return select('#', unpack({1, 2, 3}, 1, 100))",
            "return #string.rep('ab', 1000, ',')",
            "return string.format('%5.2f %s %q %d', 3.14159, 'x', 'a\\n', 42)",
            "return string.gsub('hello world', '(o)', '[%1]')",
            "return {string.find('abc', 'b', 1, true)}",
            "local t = {} t[1] = t return t",
            "local ok, e = pcall(function() local x = nil return x.y end) return e",
            "return tostring(1e15) .. tostring(0.1) .. 2^53",
            "return math.random(1, 10) + math.floor(-0.5)",
            "local t = {5, 3, 9, 1} table.sort(t, function(a, b) return a > b end) return t",
            "return table.concat({1, 2, 3}, '-')",
            "return redis.sha1hex(ARGV[1])",
            "return redis.error_reply('E') and redis.status_reply('S')",
            "redis.log(redis.LOG_WARNING, 'fuzz') return 1",
            "return redis.call('EXPIRE', KEYS[1], 100)",
            "return redis.call('LPUSH', 'fuzz:list', ARGV[1], ARGV[2])",
            "return redis.call('HSET', 'fuzz:h', 'f', ARGV[1])",
            "local a = {} for i = 1, 50 do a[#a + 1] = redis.call('INCR', 'fuzz:c') end return #a",
            "return xpcall(function() error('x') end, function(m) return 'handled ' .. m end)",
            "local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(50)",
            "return type(_G) .. type(_ENV)",
    };

    private static final String[] TOKENS = {
            "(", ")", "{", "}", "[", "]", "[[", "]]", "..", "=", "==", "~=", ",", ";", ":", ".", "#", "'", "\"",
            "\\", "\0", "\n", " local ", " function ", " end ", " return ", " nil ", " true ", " and ", " or ",
            " not ", " if ", " then ", " else ", " do ", " for i = 1, 3 do ", " while false do ", " repeat ",
            " until true ", "1e308", "-1", "0/0", "2^53", "math.huge", "string.rep('x', 1e6)", "string.rep('y', 1e9)",
            "redis.call('SET', KEYS[1], ARGV[1])", "redis.call('GET', KEYS[1])", "redis.pcall('CLUSTER', 'RESET')",
            "pcall(", "xpcall(", "coroutine.wrap(", "coroutine.create(", "coroutine.resume(",
            "setmetatable({}, {__index = function() end})", "getmetatable('')", "getmetatable(_G)",
            "rawset(_G, 'x', 1)", "rawset(string, 'rep', nil)", "_G", "_ENV", "loadstring(", "load(",
            "string.dump(", "unpack(", "select('#', ", "{err = 'x'}", "{ok = 'x'}", "{map = {}}", "{double = 1.5}",
            "redis.setresp(3)", "redis.setresp(2)", "error(", "tostring(", "tonumber(", "KEYS[1]", "ARGV[1]",
            "cjson.decode(", "cjson.encode(", "cmsgpack.unpack(", "struct.unpack(", "string.byte(", "string.char(",
            "table.concat(", "table.sort(", "string.format('%99d', 1)", "('x'):rep(", "#", "-", "+", "*", "/", "%",
            "^", "<", ">", "...", "arg", "self", "goto", "::l::", "--[[", "--", "]]"};

    @Test
    void scriptsNeitherStopTheServerNorLeakState() {
        Random random = new Random(SEED);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (RedisSimulator onlooker = RedisSimulator.start(); RespClient watcher = client(onlooker)) {
            RespValue freshSandbox = watcher.call("EVAL", PROBE, "0");
            assertThat(freshSandbox.isError()).as(freshSandbox.toString()).isFalse();
            Fuzzed target = new Fuzzed();
            try {
                byte[] dump = target.caller.call("EVAL", "return string.dump(function(a) return a .. 'x' end)", "0")
                        .data();
                run(target, random, dump, 50); // warm up: Lua state, script thread, JIT
                long heapBefore = usedHeapAfterGc(memory);
                int threadsBefore = threads.getThreadCount();
                for (int done = 0; done < COUNT; done += 100) {
                    run(target, random, dump, Math.min(100, COUNT - done));
                    target = target.restartedIfStuck();
                    assertThat(target.caller.call("EVAL", PROBE, "0")).as("sandbox after %d scripts, seed %d",
                            done + 100, SEED).isEqualTo(freshSandbox);
                    assertThat(watcher.call("EVAL", PROBE, "0")).as("the other simulator's sandbox, seed %d", SEED)
                            .isEqualTo(freshSandbox);
                }
                System.out.printf("ScriptFuzzTest: seed %d, %d scripts: %d replies (%d errors), %d kills asked, "
                        + "%d simulators restarted for an unkillable script; the sandbox probe has %d entries%n", SEED,
                        COUNT, target.replies, target.errors, target.kills, target.restarts,
                        freshSandbox.children().size());
                assertThat(target.restarts).as("simulators stopped for an unkillable script, seed %d", SEED)
                        .isLessThan(COUNT / 20);
                awaitThreadsAtMost(threads, threadsBefore + 2);
                assertThat(threads.getThreadCount()).as("threads left, seed %d", SEED)
                        .isLessThanOrEqualTo(threadsBefore + 2);
                assertThat(usedHeapAfterGc(memory) - heapBefore).as("heap kept, seed %d", SEED)
                        .isLessThan(64L << 20);
            } finally {
                target.close();
            }
        }
    }

    /** The simulator under fuzz, with its caller and an admin connection to kill scripts that run on. */
    private static final class Fuzzed implements AutoCloseable {
        RedisSimulator simulator;
        RespClient caller;
        RespClient admin;
        int restarts;
        int kills;
        int errors;
        int replies;
        boolean stuck;

        Fuzzed() {
            open();
        }

        private void open() {
            simulator = RedisSimulator.builder().config("busy-reply-threshold", "20")
                    .scriptMemoryLimit(64L << 20).start();
            caller = client(simulator);
            admin = client(simulator);
        }

        /** A script that wrote and runs on cannot be killed (as in Redis): only the end of the server stops it. */
        Fuzzed restartedIfStuck() {
            if (stuck) {
                close();
                restarts++;
                stuck = false;
                open();
            }
            return this;
        }

        @Override
        public void close() {
            caller.close();
            admin.close();
            simulator.close();
        }
    }

    private static void run(Fuzzed target, Random random, byte[] dump, int scripts) {
        for (int i = 0; i < scripts && !target.stuck; i++) {
            int kind = random.nextInt(20);
            if (kind == 0) {
                call(target, "EVAL", "return loadstring(ARGV[1])", "0", mutate(random, dump));
            } else if (kind == 1) {
                byte[] noise = new byte[random.nextInt(64)];
                random.nextBytes(noise);
                call(target, "EVAL", "local f, e = loadstring(ARGV[1]) if f then return f() end return e", "0", noise);
            } else if (kind == 2) {
                String body = "redis.register_function('f" + random.nextInt(4) + "', function(keys, args) "
                        + new String(mutate(random, pick(random, CORPUS).getBytes(StandardCharsets.UTF_8)),
                        StandardCharsets.ISO_8859_1) + " end)";
                call(target, "FUNCTION", "LOAD", "REPLACE", "#!lua name=fuzz\n" + body);
                call(target, "FCALL", "f" + random.nextInt(4), "1", "fuzz:k", "a", "1");
            } else {
                byte[] source = switch (kind) {
                    case 3 -> soup(random);
                    case 4, 5, 6 -> splice(random).getBytes(StandardCharsets.UTF_8);
                    case 7, 8 -> mutate(random, splice(random).getBytes(StandardCharsets.UTF_8));
                    default -> mutate(random, pick(random, CORPUS).getBytes(StandardCharsets.UTF_8));
                };
                if (random.nextInt(100) == 0) { // one that never ends: killed, or, once it wrote, unkillable
                    String loop = (random.nextBoolean() ? "redis.call('SET', 'fuzz:w', '1') " : "") + "while true do end ";
                    source = (loop + new String(source, StandardCharsets.ISO_8859_1))
                            .getBytes(StandardCharsets.ISO_8859_1);
                }
                call(target, "EVAL", source, "1", "fuzz:k", "a", "1");
            }
            if (!target.stuck) {
                assertThat(target.caller.call("PING").text()).as("caller in step, seed %d", SEED).isEqualTo("PONG");
            }
        }
    }

    /** Sends one command and reads its reply; a script that runs on is killed, and the kill's error read. */
    private static void call(Fuzzed target, Object... args) {
        byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            bytes[i] = args[i] instanceof byte[] b ? b : ((String) args[i]).getBytes(StandardCharsets.ISO_8859_1);
        }
        target.caller.send(bytes);
        target.caller.setTimeoutMillis(PATIENCE_MILLIS);
        try {
            while (true) {
                try {
                    RespValue reply = target.caller.read();
                    target.replies++;
                    if (reply.isError()) {
                        target.errors++;
                        assertThat(reply.text()).as("a Java error escaped a script (seed %d): %s", SEED,
                                new String(bytes[bytes.length > 2 ? 1 : 0], StandardCharsets.ISO_8859_1))
                                .doesNotContain("redsim internal error");
                    }
                    return;
                } catch (UncheckedIOException e) {
                    if (!(e.getCause() instanceof SocketTimeoutException)) {
                        throw e;
                    }
                    if (!kill(target)) {
                        target.stuck = true;
                        return;
                    }
                }
            }
        } finally {
            target.caller.setTimeoutMillis(10_000);
        }
    }

    /** Asks the busy server to kill its script; false when it cannot (the script wrote). */
    private static boolean kill(Fuzzed target) {
        RespValue reply = target.admin.call("SCRIPT", "KILL");
        if (reply.isError() && reply.text().startsWith("BUSY")) {
            reply = target.admin.call("FUNCTION", "KILL");
        }
        assertThat(reply.text()).as("a busy server answers its admin, seed %d", SEED)
                .matches("OK|NOTBUSY.*|UNKILLABLE.*");
        target.kills++;
        return !reply.text().startsWith("UNKILLABLE");
    }

    private static byte[] mutate(Random random, byte[] source) {
        List<Byte> bytes = new ArrayList<>();
        for (byte b : source) {
            bytes.add(b);
        }
        int mutations = 1 + random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            int at = bytes.isEmpty() ? 0 : random.nextInt(bytes.size());
            switch (random.nextInt(5)) {
                case 0 -> {
                    if (!bytes.isEmpty()) {
                        bytes.set(at, (byte) random.nextInt(256));
                    }
                }
                case 1 -> {
                    int span = Math.min(bytes.size() - at, 1 + random.nextInt(10));
                    for (int k = 0; k < span; k++) {
                        bytes.remove(at);
                    }
                }
                case 2, 3 -> {
                    byte[] token = pick(random, TOKENS).getBytes(StandardCharsets.UTF_8);
                    for (int k = token.length - 1; k >= 0; k--) {
                        bytes.add(at, token[k]);
                    }
                }
                default -> {
                    int span = Math.min(bytes.size() - at, 1 + random.nextInt(20));
                    List<Byte> copy = new ArrayList<>(bytes.subList(at, at + span));
                    bytes.addAll(at, copy);
                }
            }
        }
        byte[] out = new byte[bytes.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = bytes.get(i);
        }
        return out;
    }

    /** Two corpus scripts in one: the first inside a protected function, whatever it does, then the second. */
    private static String splice(Random random) {
        return "pcall(function() " + pick(random, CORPUS) + " end) " + pick(random, CORPUS);
    }

    private static byte[] soup(Random random) {
        StringBuilder out = new StringBuilder();
        int n = 5 + random.nextInt(30);
        for (int i = 0; i < n; i++) {
            out.append(pick(random, TOKENS)).append(random.nextBoolean() ? " " : "");
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static <T> T pick(Random random, T[] items) {
        return items[random.nextInt(items.length)];
    }

    private static RespClient client(RedisSimulator simulator) {
        return new RespClient(simulator.host(), simulator.port());
    }

    private static long usedHeapAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Coroutine threads end at their interrupt when their script ends; give them a moment, bounded. */
    private static void awaitThreadsAtMost(ThreadMXBean threads, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (threads.getThreadCount() > count && System.nanoTime() < deadline) {
            Thread.yield();
        }
    }
}
