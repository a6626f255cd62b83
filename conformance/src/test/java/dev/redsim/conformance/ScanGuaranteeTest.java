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
