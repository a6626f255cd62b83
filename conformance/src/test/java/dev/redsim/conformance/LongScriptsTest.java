package dev.redsim.conformance;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * EVAL scripts that leave the simulator's engine thread mid-run look like one run, as on real Redis (decision 0030:
 * a script starts on the engine thread and, when it runs long, nests deep or starts a coroutine, is run again from
 * its start on the script thread with its commands so far answered from a recording). Every command runs once,
 * replies, random numbers, errors and error counts are those of one run. lua-time-limit is 10 ms, which caps the
 * simulator's engine-thread time at 10 ms; the long scripts loop 3,000,000 times after their first commands (far
 * past 10 ms in luaj), then call again.
 */
class LongScriptsTest {
    private static final String LOOP = "local i = 0\nwhile i < 3000000 do i = i + 1 end\n";

    @AcrossTargets
    void commandsBeforeAMoveRunOnceAndKeepTheirReplies(RedisTarget target) {
        String script = "math.randomseed(7)\nlocal n = redis.call('INCR', KEYS[1])\nlocal r = math.random(1000000)\n"
                + "local e = redis.pcall('HGET', KEYS[1], 'f')\n" + LOOP
                + "return {n, r, e['err'], redis.call('INCR', KEYS[1]), math.random(1000000)}";
        try (LongScripts scripts = new LongScripts(target)) {
            RespClient client = scripts.client;
            client.call("DEL", "long:counter");
            RespValue expectedRandom = client.call("EVAL",
                    "math.randomseed(7) return {math.random(1000000), math.random(1000000)}", "0");
            client.call("CONFIG", "RESETSTAT");
            RespValue reply = client.call("EVAL", script, "1", "long:counter");
            assertThat(reply.children()).hasSize(5);
            assertThat(reply.children().get(0).asLong()).isEqualTo(1);
            assertThat(reply.children().get(1).asLong()).isEqualTo(expectedRandom.children().get(0).asLong());
            assertThat(reply.children().get(2).text())
                    .isEqualTo("WRONGTYPE Operation against a key holding the wrong kind of value");
            assertThat(reply.children().get(3).asLong()).isEqualTo(2);
            assertThat(reply.children().get(4).asLong()).isEqualTo(expectedRandom.children().get(1).asLong());
            assertThat(client.call("GET", "long:counter").text()).isEqualTo("2");
            String info = client.call("INFO", "all").text();
            assertThat(info).contains("errorstat_WRONGTYPE:count=1\r\n");
            assertThat(info).contains("cmdstat_incr:calls=2,");
            assertThat(info).contains("cmdstat_hget:calls=1,");
        }
    }

    @AcrossTargets
    void aDeepRecursionAfterAWriteWritesOnce(RedisTarget target) {
        String script = "redis.call('SET', KEYS[1], 'a')\n"
                + "local function deeper(n)\n  if n == 0 then return redis.call('APPEND', KEYS[1], 'b') end\n"
                + "  return deeper(n - 1) + 0\nend\nreturn deeper(150)";
        try (LongScripts scripts = new LongScripts(target)) {
            assertThat(scripts.client.call("EVAL", script, "1", "long:deep").asLong()).isEqualTo(2);
            assertThat(scripts.client.call("GET", "long:deep").text()).isEqualTo("ab");
        }
    }

    @AcrossTargets
    void aCoroutineAfterAWriteSeesItOnce(RedisTarget target) {
        String script = "redis.call('RPUSH', KEYS[1], 'x')\n"
                + "local co = coroutine.wrap(function() coroutine.yield(redis.call('RPUSH', KEYS[1], 'y')) end)\n"
                + "return co()";
        try (LongScripts scripts = new LongScripts(target)) {
            scripts.client.call("DEL", "long:list");
            assertThat(scripts.client.call("EVAL", script, "1", "long:list").asLong()).isEqualTo(2);
            assertThat(scripts.client.call("LLEN", "long:list").asLong()).isEqualTo(2);
        }
    }

    @AcrossTargets
    void aLongScriptsErrorAfterItsWritesIsReportedOnceAndTheWritesStay(RedisTarget target) {
        String script = "redis.call('SET', KEYS[1], 'written')\n" + LOOP + "return redis.call('LPUSH', KEYS[1], 'x')";
        try (LongScripts scripts = new LongScripts(target)) {
            scripts.client.call("CONFIG", "RESETSTAT");
            RespValue reply = scripts.client.call("EVAL", script, "1", "long:error");
            assertThat(reply.text()).startsWith("WRONGTYPE Operation against a key holding the wrong kind of value");
            assertThat(scripts.client.call("GET", "long:error").text()).isEqualTo("written");
            String info = scripts.client.call("INFO", "all").text();
            assertThat(info).contains("errorstat_WRONGTYPE:count=1\r\n");
            assertThat(info).contains("cmdstat_set:calls=1,");
        }
    }

    /**
     * A read the script makes after it overran the time limit makes its caller track the keys the script declared,
     * as the script's earlier reads do (Redis's trackingRememberKeys with server.script_caller). On the simulator
     * the read runs on the script thread after the engine thread went busy: it must still find its caller's EVAL.
     */
    @AcrossTargets
    void aReadAfterTheTimeLimitIsTrackedForTheCaller(RedisTarget target) {
        try (LongScripts scripts = new LongScripts(target); RespClient writer = new RespClient(target.host(), target.port())) {
            RespClient client = scripts.client;
            client.call("HELLO", "3");
            writer.call("SET", "long:tracked", "1");
            assertThat(client.call("CLIENT", "TRACKING", "on").text()).isEqualTo("OK");
            assertThat(client.call("EVAL", LOOP + "return redis.call('GET', KEYS[1])", "1", "long:tracked").text())
                    .isEqualTo("1");
            writer.call("SET", "long:tracked", "2");
            client.setTimeoutMillis(5_000);
            assertThat(client.read().toString())
                    .isEqualTo(">2\\r\\n$10\\r\\ninvalidate\\r\\n*1\\r\\n$12\\r\\nlong:tracked\\r\\n");
        }
    }

    /** One connection, with lua-time-limit at 10 ms until closed (then back to 5000). */
    private static final class LongScripts implements AutoCloseable {
        final RespClient client;

        LongScripts(RedisTarget target) {
            client = new RespClient(target.host(), target.port());
            client.call("CONFIG", "SET", "lua-time-limit", "10");
        }

        @Override
        public void close() {
            try {
                client.call("CONFIG", "SET", "lua-time-limit", "5000");
            } finally {
                client.close();
            }
        }
    }
}
