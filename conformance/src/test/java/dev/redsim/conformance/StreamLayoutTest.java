package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream's storage as Redis reports it: XINFO STREAM (radix-tree-keys, radix-tree-nodes) and MEMORY USAGE (its
 * listpacks' allocations and every radix tree's node count, the stream's and each pending list's) after every step
 * of a random history of XADD (random ID gaps and fields), XDEL, XTRIM and group reads, claims and acks, under
 * several stream-node-max-bytes / -entries settings, on redis-server and on the simulator side by side.
 */
class StreamLayoutTest {
    private static final int STEPS = 1000;
    private RespClient redis;
    private RespClient sim;

    @BeforeEach
    void connect() {
        RedisTarget reference = SharedTargets.reference();
        redis = new RespClient(reference.host(), reference.port());
        sim = new RespClient(SharedTargets.simulator().host(), SharedTargets.simulator().port());
        both("SELECT", "13");
        both("FLUSHDB");
    }

    @AfterEach
    void restore() {
        both("CONFIG", "SET", "stream-node-max-bytes", "4096");
        both("CONFIG", "SET", "stream-node-max-entries", "100");
        both("FLUSHDB");
        redis.close();
        sim.close();
    }

    @ParameterizedTest(name = "stream-node-max-bytes {0}, stream-node-max-entries {1}, seed {2}")
    @CsvSource({"4096, 100, 1", "4096, 3, 2", "4096, 1, 3", "120, 0, 4", "60, 5, 5", "0, 7, 6", "1, 100, 7",
            "300, 0, 8"})
    void xinfoAndMemoryUsageFollowRedisStep(long maxBytes, long maxEntries, long seed) {
        both("CONFIG", "SET", "stream-node-max-bytes", Long.toString(maxBytes));
        both("CONFIG", "SET", "stream-node-max-entries", Long.toString(maxEntries));
        SplittableRandom random = new SplittableRandom(seed);
        long ms = 1;
        List<String> history = new ArrayList<>();
        List<String> added = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            String[] call = nextCall(random, ms, added);
            if (call[0].equals("XADD")) {
                ms = Long.parseLong(call[2].substring(0, call[2].indexOf('-'))) + 1;
                added.add(call[2]);
            }
            history.add(String.join(" ", call));
            RespValue want = redis.call(call);
            RespValue got = sim.call(call);
            assertThat(got).as("reply to %s after %s", String.join(" ", call), history).isEqualTo(want);
            for (String[] probe : new String[][] {{"XINFO", "STREAM", "s"}, {"MEMORY", "USAGE", "s"},
                    {"MEMORY", "USAGE", "s", "SAMPLES", "0"}, {"MEMORY", "USAGE", "s", "SAMPLES", "2"}}) {
                assertThat(sim.call(probe)).as("%s after %s", String.join(" ", probe), history)
                        .isEqualTo(redis.call(probe));
            }
        }
    }

    /** Mostly XADD with IDs whose gaps make the radix tree branch at every depth; then deletions and group work. */
    private static String[] nextCall(SplittableRandom random, long ms, List<String> added) {
        int kind = random.nextInt(100);
        if (kind < 55) {
            long gap = switch (random.nextInt(5)) {
                case 0 -> 0;
                case 1 -> random.nextLong(1, 300);
                case 2 -> random.nextLong(1, 70_000);
                case 3 -> random.nextLong(1, 1L << 40);
                default -> 1;
            };
            long seq = random.nextInt(4) == 0 ? random.nextLong(0, 1L << 20) : random.nextInt(3);
            List<String> call = new ArrayList<>(List.of("XADD", "s", (ms + gap) + "-" + seq));
            int fields = 1 + random.nextInt(3);
            boolean usual = random.nextBoolean();
            for (int f = 0; f < fields; f++) {
                call.add(usual ? "field" + f : "f" + random.nextInt(4));
                call.add(random.nextInt(6) == 0 ? "x".repeat(random.nextInt(1, 200))
                        : Long.toString(random.nextLong(-100_000, 100_000)));
            }
            return call.toArray(new String[0]);
        }
        if (kind < 65) {
            return new String[] {"XDEL", "s", randomId(random, ms, added), randomId(random, ms, added)};
        }
        if (kind < 70) {
            String approx = random.nextBoolean() ? "~" : "=";
            return random.nextBoolean()
                    ? new String[] {"XTRIM", "s", "MAXLEN", approx, Long.toString(random.nextInt(0, 200))}
                    : new String[] {"XTRIM", "s", "MINID", approx, randomId(random, ms, added)};
        }
        if (kind < 73) {
            return new String[] {"XGROUP", "CREATE", "s", "g" + random.nextInt(3), "0", "MKSTREAM"};
        }
        String group = "g" + random.nextInt(3);
        String consumer = "c" + random.nextInt(4);
        if (kind < 85) {
            return new String[] {"XREADGROUP", "GROUP", group, consumer, "COUNT", Integer.toString(random.nextInt(1, 30)),
                    "STREAMS", "s", ">"};
        }
        if (kind < 92) {
            return new String[] {"XACK", "s", group, randomId(random, ms, added), randomId(random, ms, added)};
        }
        if (kind < 97) {
            return new String[] {"XAUTOCLAIM", "s", group, consumer, "0", randomId(random, ms, added), "COUNT",
                    Integer.toString(random.nextInt(1, 20)), "JUSTID"};
        }
        return new String[] {"XGROUP", "DELCONSUMER", "s", group, consumer};
    }

    /** Mostly an ID that was added (deleted or not), else any ID below the newest. */
    private static String randomId(SplittableRandom random, long ms, List<String> added) {
        if (!added.isEmpty() && random.nextInt(10) < 7) {
            return added.get(random.nextInt(added.size()));
        }
        return random.nextLong(0, ms) + "-" + random.nextInt(3);
    }

    private void both(String... call) {
        redis.call(call);
        sim.call(call);
    }
}
