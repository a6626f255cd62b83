package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A script that returns a table containing itself: Redis nests the reply as deep as its Lua stack allows (some
 * 2,000 to 8,000 levels, by the kind of table), answers "-ERR reached lua stack limit" for what lies deeper, and
 * goes on with the rest of the reply. The simulator must send the same bytes, in RESP2 and RESP3. These replies
 * are compared live rather than in a scenario file: written out level by indented level, a recording of them
 * would take hundreds of megabytes.
 */
class ScriptReplyDepthTest {
    static Stream<Arguments> scripts() {
        List<Arguments> cases = new ArrayList<>();
        for (int protocol : new int[] {2, 3}) {
            for (String script : new String[] {
                    "local t = {} t[1] = t return t",
                    "local t = {} t[1] = t t[2] = 'x' return t",
                    "local t = {} t[1] = 'x' t[2] = t return t",
                    "local m = {} local t = {map = m} m[t] = 1 return t",
                    "local m = {} local t = {map = m} m.a = t return t",
                    "local s = {} local t = {set = s} s[t] = true return t",
                    "local t = {} t.a = t return {map = t}",
                    "local t = {} t[t] = true return {set = t}",
                    "local a, b = {}, {} a[1] = b b[1] = a a[2] = {err = 'deep'} return a"}) {
                cases.add(Arguments.of(protocol, script));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "RESP{0}: {1}")
    @MethodSource("scripts")
    void sameBytesAsRedis(int protocol, String script) throws IOException {
        String want = evalReply(SharedTargets.reference(), protocol, script);
        String got = evalReply(SharedTargets.simulator(), protocol, script);
        assertThat(got.length()).as("reply length").isEqualTo(want.length());
        assertThat(got).isEqualTo(want);
    }

    /** The escaped reply to one EVAL, on a fresh connection speaking {@code protocol}, followed by PING's. */
    private static String evalReply(RedisTarget target, int protocol, String script) throws IOException {
        String input = command("HELLO", String.valueOf(protocol)) + command("EVAL", script, "0") + command("PING");
        ProtocolConformanceTest.Outcome outcome =
                ProtocolConformanceTest.exchange(target, input.getBytes(StandardCharsets.UTF_8), 0);
        assertThat(outcome.closed()).as(target.name() + " closed the connection").isFalse();
        String reply = outcome.reply();
        // HELLO's reply names the connection's id: the comparison starts after it
        return reply.substring(reply.indexOf("\\r\\n", reply.indexOf("modules")) + 4);
    }

    private static String command(String... args) {
        StringBuilder out = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            out.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg).append("\r\n");
        }
        return out.toString();
    }
}
