package dev.redsim.samples.downstream;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorExtension;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Lettuce 6 (Netty-based, RESP3 by default): sync, async with pipelining, and pub/sub. */
@ExtendWith(RedisSimulatorExtension.class)
class LettuceSampleTest {
    private RedisClient client;

    @BeforeEach
    void connect(RedisSimulator redis) {
        client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
    }

    @AfterEach
    void shutdown() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    @Test
    void syncCommands() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            assertThat(redis.set("greeting", "hello")).isEqualTo("OK");
            assertThat(redis.append("greeting", ", world")).isEqualTo(12);
            assertThat(redis.get("greeting")).isEqualTo("hello, world");
            redis.hset("user:1", "name", "Ada");
            redis.hincrby("user:1", "logins", 3);
            assertThat(redis.hgetall("user:1")).containsEntry("name", "Ada").containsEntry("logins", "3");
        }
    }

    @Test
    void asyncCommandsFlushedAsOneBatch() {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisAsyncCommands<String, String> async = connection.async();
            connection.setAutoFlushCommands(false); // queue the commands, then send them in one write
            List<RedisFuture<Long>> increments = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                increments.add(async.incr("counter"));
            }
            connection.flushCommands();
            assertThat(LettuceFutures.awaitAll(Duration.ofSeconds(5), increments.toArray(new RedisFuture[0]))).isTrue();
            assertThat(increments.get(49).toCompletableFuture().join()).isEqualTo(50);
            connection.setAutoFlushCommands(true);
            assertThat(connection.sync().get("counter")).isEqualTo("50");
        }
    }

    @Test
    void publishedMessagesReachTheSubscriber() throws InterruptedException {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        try (StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub();
             StatefulRedisConnection<String, String> publisher = client.connect()) {
            subscriber.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    received.add(channel + ":" + message);
                }

                @Override
                public void message(String pattern, String channel, String message) {
                    received.add(pattern + "|" + channel + ":" + message);
                }
            });
            subscriber.sync().subscribe("orders");
            subscriber.sync().psubscribe("audit.*");
            assertThat(publisher.sync().publish("orders", "order-1")).isEqualTo(1);
            assertThat(publisher.sync().publish("audit.login", "ada")).isEqualTo(1);
            assertThat(received.poll(5, TimeUnit.SECONDS)).isEqualTo("orders:order-1");
            assertThat(received.poll(5, TimeUnit.SECONDS)).isEqualTo("audit.*|audit.login:ada");
        }
    }
}
