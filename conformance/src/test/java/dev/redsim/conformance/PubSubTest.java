package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pub/sub behaviour the scenario files cannot compare byte for byte: CLIENT LIST fields of subscribed connections
 * (ids and addresses differ, so fields are checked on both targets), and expired events from active expiry driven
 * by the simulator's clock (real Redis would need real waiting).
 */
class PubSubTest {
    static List<RedisTarget> targets() {
        return List.of(SharedTargets.reference(), SharedTargets.simulator());
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void clientListShowsSubscriptionsAndThePubSubType(RedisTarget target) {
        try (RespClient subscriber = new RespClient(target.host(), target.port());
             RespClient observer = new RespClient(target.host(), target.port())) {
            Map<String, Long> before = pubSubInfo(observer);
            long id = subscriber.call("CLIENT", "ID").asLong();
            subscriber.call("HELLO", "3");
            subscriber.call("SUBSCRIBE", "a", "b");
            subscriber.read();
            subscriber.call("PSUBSCRIBE", "p*");
            subscriber.call("SSUBSCRIBE", "s");
            Map<String, String> own = fields(subscriber.call("CLIENT", "INFO").text());
            assertThat(own).containsEntry("flags", "P").containsEntry("sub", "2").containsEntry("psub", "1")
                    .containsEntry("ssub", "1").containsEntry("resp", "3");

            Map<String, String> seen = fields(observer.call("CLIENT", "LIST", "ID", Long.toString(id)).text());
            assertThat(seen).containsEntry("flags", "P").containsEntry("sub", "2").containsEntry("psub", "1")
                    .containsEntry("ssub", "1").containsEntry("cmd", "client|info");
            assertThat(observer.call("CLIENT", "LIST", "TYPE", "pubsub").text()).contains("id=" + id + " ");
            assertThat(observer.call("CLIENT", "LIST", "TYPE", "normal").text()).doesNotContain("id=" + id + " ");

            Map<String, Long> during = pubSubInfo(observer);
            assertThat(during.get("pubsub_channels") - before.get("pubsub_channels")).isEqualTo(2);
            assertThat(during.get("pubsub_patterns") - before.get("pubsub_patterns")).isEqualTo(1);
            assertThat(during.get("pubsubshard_channels") - before.get("pubsubshard_channels")).isEqualTo(1);

            subscriber.call("RESET");
            assertThat(pubSubInfo(observer)).isEqualTo(before);
            seen = fields(observer.call("CLIENT", "LIST", "ID", Long.toString(id)).text());
            assertThat(seen).containsEntry("flags", "N").containsEntry("sub", "0").containsEntry("psub", "0")
                    .containsEntry("ssub", "0");
            assertThat(observer.call("CLIENT", "LIST", "TYPE", "normal").text()).contains("id=" + id + " ");
        }
    }

    @Test
    void activeExpiryPublishesExpiredEventsOnTheSimulatorsClock() {
        try (RedisSimulator simulator = RedisSimulator.start();
             RespClient subscriber = new RespClient(simulator.host(), simulator.port());
             RespClient client = new RespClient(simulator.host(), simulator.port())) {
            simulator.freezeTime();
            client.call("CONFIG", "SET", "notify-keyspace-events", "KEx");
            subscriber.call("SUBSCRIBE", "__keyevent@0__:expired");
            subscriber.call("PSUBSCRIBE", "__keyspace@0__:*");
            client.call("SET", "job", "v", "PX", "100");
            client.call("SET", "later", "v", "PX", "500");
            client.call("SET", "never", "v");

            simulator.advanceTime(Duration.ofMillis(150)); // nobody touches the key: only the sweep can expire it
            assertThat(texts(subscriber.read())).containsExactly("pmessage", "__keyspace@0__:*",
                    "__keyspace@0__:job", "expired");
            assertThat(texts(subscriber.read())).containsExactly("message", "__keyevent@0__:expired", "job");
            assertThat(texts(subscriber.call("PING"))).containsExactly("pong", "");

            simulator.advanceTime(Duration.ofMillis(400));
            subscriber.read();
            assertThat(texts(subscriber.read())).containsExactly("message", "__keyevent@0__:expired", "later");
            assertThat(client.call("DBSIZE").asLong()).isEqualTo(1);
        }
    }

    /** INFO stats' pubsub_channels, pubsub_patterns and pubsubshard_channels. */
    private static Map<String, Long> pubSubInfo(RespClient client) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String line : client.call("INFO", "stats").text().split("\r\n")) {
            if (line.startsWith("pubsub")) {
                counts.put(line.substring(0, line.indexOf(':')), Long.parseLong(line.substring(line.indexOf(':') + 1)));
            }
        }
        assertThat(counts).hasSize(3);
        return counts;
    }

    private static List<String> texts(RespValue value) {
        return value.children().stream().map(RespValue::text).toList();
    }

    private static Map<String, String> fields(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : line.strip().split(" ")) {
            int eq = pair.indexOf('=');
            fields.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return fields;
    }
}
