package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce 6's client-side caching (ClientSideCaching over RESP3 CLIENT TRACKING) on the simulator and on
 * redis-server: a value read through the cache frontend is served from the local map until another client writes
 * the key; the server's invalidation push then evicts it, and the next read fetches the new value.
 */
class LettuceClientSideCachingTest {

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void aWriteByAnotherClientEvictsTheCachedValue(String name) throws InterruptedException {
        try (RedisTarget target = name.equals("simulator") ? new SimulatorTarget() : Targets.reference()) {
            RedisClient client = RedisClient.create(RedisURI.create(target.host(), target.port()));
            try (StatefulRedisConnection<String, String> cached = client.connect();
                 StatefulRedisConnection<String, String> other = client.connect()) {
                RedisCommands<String, String> writer = other.sync();
                writer.set("greeting", "hello");
                Map<String, String> local = new ConcurrentHashMap<>();
                CacheFrontend<String, String> frontend = ClientSideCaching.enable(CacheAccessor.forMap(local), cached,
                        TrackingArgs.Builder.enabled());
                BlockingQueue<String> invalidated = new LinkedBlockingQueue<>();
                ((ClientSideCaching<String, String>) frontend).addInvalidationListener(invalidated::add);

                assertThat(frontend.get("greeting")).isEqualTo("hello");
                assertThat(local).containsEntry("greeting", "hello");
                assertThat(cached.sync().clientTrackinginfo().toString()).contains("flags=[ON]"); // Lettuce parses the map

                writer.set("greeting", "bonjour");
                assertThat(invalidated.poll(10, TimeUnit.SECONDS)).isEqualTo("greeting");
                assertThat(local).doesNotContainKey("greeting");
                assertThat(frontend.get("greeting")).isEqualTo("bonjour");
                assertThat(local).containsEntry("greeting", "bonjour");

                writer.del("greeting");
                assertThat(invalidated.poll(10, TimeUnit.SECONDS)).isEqualTo("greeting");
                assertThat(local).isEmpty();
                frontend.close();
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(5));
            }
        }
    }
}
