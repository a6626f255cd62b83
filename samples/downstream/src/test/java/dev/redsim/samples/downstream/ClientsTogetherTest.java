package dev.redsim.samples.downstream;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The three clients on one simulator at once, each seeing what the others wrote. */
@ExtendWith(RedisSimulatorExtension.class)
class ClientsTogetherTest {
    @Test
    void whatOneClientWritesTheOthersRead(RedisSimulator redis) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + redis.host() + ":" + redis.port())
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(1);
        RedissonClient redisson = Redisson.create(config);
        RedisClient lettuce = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
        try (Jedis jedis = new Jedis(redis.host(), redis.port());
             StatefulRedisConnection<String, String> connection = lettuce.connect()) {
            redisson.getMap("stock", StringCodec.INSTANCE).put("apples", "12");
            assertThat(jedis.hget("stock", "apples")).isEqualTo("12");
            jedis.hincrBy("stock", "apples", -2);
            assertThat(connection.sync().hget("stock", "apples")).isEqualTo("10");
            connection.sync().lpush("events", "restocked");
            assertThat(redisson.getList("events", StringCodec.INSTANCE).readAll()).containsExactly("restocked");
            assertThat(jedis.clientList().lines().count()).as("Jedis, Lettuce and Redisson connections")
                    .isGreaterThanOrEqualTo(3);
        } finally {
            lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            redisson.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
