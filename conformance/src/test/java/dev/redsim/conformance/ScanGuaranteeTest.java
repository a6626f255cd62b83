package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SCAN's guarantee on the simulator: a full iteration with a small COUNT returns every key that was present
 * from start to end, however many keys are added and removed in between. (Our cursors differ from Redis's, so
 * this is checked as a property rather than compared reply by reply.)
 */
class ScanGuaranteeTest {
    private static RedisSimulator simulator;

    @BeforeAll
    static void start() {
        simulator = RedisSimulator.start();
    }

    @AfterAll
    static void stop() {
        simulator.close();
    }

    @Test
    void fullScanReturnsEveryKeyPresentThroughout() {
        try (RespClient client = new RespClient(simulator.host(), simulator.port())) {
            client.call("FLUSHALL");
            Set<String> stable = new HashSet<>();
            for (int i = 0; i < 500; i++) {
                String key = "stable:" + i;
                client.call("SET", key, "v");
                stable.add(key);
            }
            Random random = new Random(42);
            Set<String> seen = new HashSet<>();
            String cursor = "0";
            int calls = 0;
            int churn = 0;
            do {
                RespValue reply = client.call("SCAN", cursor, "COUNT", "7");
                cursor = reply.children().get(0).text();
                for (RespValue key : reply.children().get(1).children()) {
                    seen.add(key.text());
                }
                // Churn between calls: new keys arrive, short-lived keys go.
                for (int j = 0; j < 5; j++) {
                    client.call("SET", "churn:" + churn, "v");
                    client.call("DEL", "churn:" + random.nextInt(churn + 1));
                    churn++;
                }
                calls++;
                assertThat(calls).as("the scan ends").isLessThan(10_000);
            } while (!cursor.equals("0"));
            assertThat(seen).containsAll(stable);
        }
    }

    @Test
    void interleavedScansEachSeeEveryStableKey() {
        try (RespClient first = new RespClient(simulator.host(), simulator.port());
             RespClient second = new RespClient(simulator.host(), simulator.port())) {
            first.call("FLUSHALL");
            for (int i = 0; i < 200; i++) {
                first.call("SET", "early:" + i, "v");
            }
            Set<String> seenByFirst = new HashSet<>();
            Set<String> seenBySecond = new HashSet<>();
            String firstCursor = "0";
            String secondCursor = null;
            int step = 0;
            do {
                firstCursor = scanStep(first, firstCursor, seenByFirst);
                if (step == 10) {
                    // A later scan starts while the first is under way, after more keys arrived.
                    for (int i = 0; i < 100; i++) {
                        second.call("SET", "late:" + i, "v");
                    }
                    secondCursor = "0";
                }
                if (secondCursor != null && !(secondCursor.equals("0") && step > 10)) {
                    secondCursor = scanStep(second, secondCursor, seenBySecond);
                }
                step++;
            } while (!firstCursor.equals("0"));
            while (!secondCursor.equals("0")) {
                secondCursor = scanStep(second, secondCursor, seenBySecond);
            }
            for (int i = 0; i < 200; i++) {
                assertThat(seenByFirst).contains("early:" + i);
                assertThat(seenBySecond).contains("early:" + i);
            }
            for (int i = 0; i < 100; i++) {
                assertThat(seenBySecond).contains("late:" + i);
            }
        }
    }

    private static String scanStep(RespClient client, String cursor, Set<String> seen) {
        RespValue reply = client.call("SCAN", cursor, "COUNT", "3");
        reply.children().get(1).children().forEach(k -> seen.add(k.text()));
        return reply.children().get(0).text();
    }

    @Test
    void fullSscanOfAHashtableReturnsEveryStableMember() {
        try (RespClient client = new RespClient(simulator.host(), simulator.port())) {
            client.call("FLUSHALL");
            for (int i = 0; i < 300; i++) {
                client.call("SADD", "s", "m" + i);
            }
            Set<String> seen = new HashSet<>();
            String cursor = "0";
            int added = 0;
            do {
                RespValue reply = client.call("SSCAN", "s", cursor, "COUNT", "5");
                cursor = reply.children().get(0).text();
                List<RespValue> members = reply.children().get(1).children();
                members.forEach(m -> seen.add(m.text()));
                client.call("SADD", "s", "new" + added++);
                client.call("SREM", "s", "m" + (299 - added % 50));
            } while (!cursor.equals("0"));
            for (int i = 0; i < 250; i++) {
                assertThat(seen).contains("m" + i);
            }
        }
    }
}
