package dev.redsim.conformance;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Patterns that take exponential time to reject with naive backtracking (CVE-2022-36021): "a*a*...*b" against a
 * long run of "a"s. Redis 7.0 answers them at once wherever it matches patterns; so must the simulator, whose
 * engine thread would otherwise spin and stall every client. Each call runs under a read timeout of 10 s: a
 * matcher without the bound takes longer than the age of the universe, so a failure here is a hang, not a slow run.
 */
class PatternBoundsTest {
    private static final String LONG_RUN = "a".repeat(63);
    private static final String ABUSIVE = "a*".repeat(32) + "b";

    @AcrossTargets
    void keysAndScanRejectTheAbusivePatternAtOnce(RedisTarget target) {
        try (RespClient client = client(target)) {
            client.call("FLUSHALL");
            client.call("SET", LONG_RUN, "1");
            client.call("HSET", "hash", LONG_RUN, "1");
            client.call("SADD", "set", LONG_RUN, "x");
            client.call("ZADD", "zset", "1", LONG_RUN);
            assertThat(client.call("KEYS", ABUSIVE).children()).isEmpty();
            assertThat(client.call("SCAN", "0", "MATCH", ABUSIVE).children().get(1).children()).isEmpty();
            assertThat(client.call("HSCAN", "hash", "0", "MATCH", ABUSIVE).children().get(1).children()).isEmpty();
            assertThat(client.call("SSCAN", "set", "0", "MATCH", ABUSIVE).children().get(1).children()).isEmpty();
            assertThat(client.call("ZSCAN", "zset", "0", "MATCH", ABUSIVE).children().get(1).children()).isEmpty();
            assertThat(client.call("KEYS", "a*".repeat(32)).children()).hasSize(1); // the bound keeps real matches
        }
    }

    @AcrossTargets
    void pubSubAndConfigRejectTheAbusivePatternAtOnce(RedisTarget target) {
        try (RespClient subscriber = client(target); RespClient client = client(target)) {
            subscriber.call("SUBSCRIBE", LONG_RUN);
            assertThat(client.call("PUBSUB", "CHANNELS", ABUSIVE).children()).isEmpty();
            assertThat(client.call("CONFIG", "GET", ABUSIVE).children()).isEmpty();
            try (RespClient patternSubscriber = client(target)) {
                patternSubscriber.call("PSUBSCRIBE", ABUSIVE);
                assertThat(client.call("PUBLISH", LONG_RUN, "hello").asLong()).isEqualTo(1); // the plain subscriber only
            }
            assertThat(client.call("PING").text()).isEqualTo("PONG");
        }
    }

    private static RespClient client(RedisTarget target) {
        RespClient client = new RespClient(target.host(), target.port());
        client.setTimeoutMillis(10_000);
        return client;
    }
}
