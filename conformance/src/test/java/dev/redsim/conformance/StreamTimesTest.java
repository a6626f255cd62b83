package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream replies that carry times, compared live on redis-server and the simulator side by side (each server
 * reads its own clock, so a scenario file cannot hold them): XPENDING's extended form with and without IDLE,
 * XINFO CONSUMERS, XINFO STREAM FULL, XCLAIM with IDLE and TIME and min-idle-time, XAUTOCLAIM's min-idle-time.
 * Delivery times are set far in the past with XCLAIM TIME, so idle times and timestamps are compared as ages
 * within a tolerance; everything else byte for byte, under RESP2 and RESP3.
 */
class StreamTimesTest {
    /** How far two servers' clocks may drift apart over one comparison. */
    private static final long TOLERANCE_MS = 2_000;
    private RespClient redis;
    private RespClient sim;

    @AfterEach
    void close() {
        both("FLUSHDB");
        redis.close();
        sim.close();
    }

    @ParameterizedTest(name = "RESP{0}")
    @ValueSource(ints = {2, 3})
    void pendingEntriesAndConsumersShowTheSameTimes(int protocol) {
        connect(protocol);
        for (String id : List.of("1", "2", "3", "4")) {
            both("XADD", "s", id, "f", id);
        }
        both("XGROUP", "CREATE", "s", "g", "0");
        both("XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "s", ">");
        both("XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">");
        // entry 1 delivered at the epoch's second second, 2 one hour ago (IDLE), 3 and 4 just now
        compare("XCLAIM", "s", "g", "carol", "0", "1", "TIME", "1000", "JUSTID");
        compare("XCLAIM", "s", "g", "carol", "0", "2", "IDLE", "3600000", "RETRYCOUNT", "5");
        compare("XPENDING", "s", "g", "-", "+", "10");
        compare("XPENDING", "s", "g", "-", "+", "10", "carol");
        compare("XPENDING", "s", "g", "IDLE", "60000", "-", "+", "10");
        compare("XPENDING", "s", "g", "IDLE", "60000", "(1", "+", "10", "carol");
        compare("XPENDING", "s", "g", "IDLE", "60000", "-", "+", "10", "bob");
        compare("XINFO", "CONSUMERS", "s", "g");
        compare("XINFO", "STREAM", "s", "FULL");
        compare("XINFO", "STREAM", "s", "FULL", "COUNT", "1");
        // min-idle-time: only the entries idle for a minute are taken
        compare("XCLAIM", "s", "g", "dave", "60000", "1", "2", "3", "4", "JUSTID");
        compare("XAUTOCLAIM", "s", "g", "erin", "60000", "0", "JUSTID");
        compare("XCLAIM", "s", "g", "erin", "0", "3", "IDLE", "7200000");
        compare("XAUTOCLAIM", "s", "g", "frank", "3600000", "0");
        compare("XPENDING", "s", "g", "-", "+", "10");
        compare("XINFO", "CONSUMERS", "s", "g");
        // a time in the future or before the epoch is taken as now
        compare("XCLAIM", "s", "g", "gina", "0", "4", "TIME", "99999999999999", "JUSTID");
        compare("XCLAIM", "s", "g", "gina", "0", "3", "IDLE", "-5", "JUSTID");
        compare("XPENDING", "s", "g", "IDLE", "60000", "-", "+", "10");
        compare("XINFO", "STREAM", "s", "FULL");
    }

    private void connect(int protocol) {
        RedisTarget reference = SharedTargets.reference();
        redis = new RespClient(reference.host(), reference.port());
        sim = new RespClient(SharedTargets.simulator().host(), SharedTargets.simulator().port());
        both("HELLO", Integer.toString(protocol));
        both("SELECT", "14");
        both("FLUSHDB");
    }

    private void both(String... call) {
        redis.call(call);
        sim.call(call);
    }

    private void compare(String... call) {
        long redisNow = now(redis);
        RespValue want = redis.call(call);
        long simNow = now(sim);
        RespValue got = sim.call(call);
        String what = String.join(" ", call) + ": redis-server " + want + ", simulator " + got;
        assertThat(same(want, got, redisNow, simNow, false)).as(what).isTrue();
    }

    private static long now(RespClient client) {
        List<RespValue> time = client.call("TIME").children();
        return Long.parseLong(time.get(0).text()) * 1000 + Long.parseLong(time.get(1).text()) / 1000;
    }

    private static boolean isPendingEntry(RespValue value) {
        List<RespValue> fields = value.children();
        return fields.size() == 4 && fields.get(0).text() != null && fields.get(0).text().matches("\\d+-\\d+")
                && fields.get(2).type() == ':';
    }

    /**
     * Equal, except integers that are times: a timestamp (or an idle time since long ago) is compared as its age on
     * its own server's clock, and the integer after an "idle" key may differ by the tolerance.
     */
    private static boolean same(RespValue want, RespValue got, long wantNow, long gotNow, boolean idleHere) {
        if (want.type() == ':' && got.type() == ':') {
            long a = want.asLong();
            long b = got.asLong();
            if (a == b) {
                return true;
            }
            if (a >= 1_000_000_000_000L && b >= 1_000_000_000_000L) {
                return Math.abs((wantNow - a) - (gotNow - b)) <= TOLERANCE_MS;
            }
            return idleHere && Math.abs(a - b) <= TOLERANCE_MS;
        }
        if (want.children() == null || got.children() == null) {
            return want.equals(got);
        }
        if (want.type() != got.type() || want.children().size() != got.children().size()) {
            return false;
        }
        for (int i = 0; i < want.children().size(); i++) {
            boolean afterIdle = i > 0 && "idle".equals(want.children().get(i - 1).text())
                    || i == 2 && isPendingEntry(want); // XPENDING's extended form: [id, consumer, idle, deliveries]
            if (!same(want.children().get(i), got.children().get(i), wantNow, gotNow, afterIdle)) {
                return false;
            }
        }
        return true;
    }
}
