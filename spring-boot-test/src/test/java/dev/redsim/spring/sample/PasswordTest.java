package dev.redsim.spring.sample;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.spring.test.AutoConfigureRedisSimulator;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A simulator with a password and configuration: Spring's clients and Redisson authenticate; strangers do not. */
@SpringBootTest
@AutoConfigureRedisSimulator(password = "s3cret", config = {"maxmemory-policy", "allkeys-lru"})
class PasswordTest {
    @Autowired
    RedisSimulator redis;
    @Autowired
    StringRedisTemplate template;
    @Autowired
    RedissonClient redisson;

    @Test
    void clientsOfTheContextAuthenticate() {
        template.opsForValue().set("k", "v");
        assertThat(redisson.getBucket("k", org.redisson.client.codec.StringCodec.INSTANCE).get()).isEqualTo("v");
        assertThat(template.execute((org.springframework.data.redis.core.RedisCallback<Object>)
                connection -> connection.serverCommands().getConfig("maxmemory-policy")))
                .hasToString("{maxmemory-policy=allkeys-lru}");
    }

    @Test
    void aClientWithoutThePasswordIsRefused() {
        RedisClient client = RedisClient.create("redis://" + redis.host() + ":" + redis.port());
        try {
            // Lettuce opens with HELLO 3, which a server with a password refuses before AUTH
            assertThatThrownBy(client::connect)
                    .rootCause()
                    .isInstanceOf(RedisCommandExecutionException.class)
                    .hasMessageStartingWith("NOAUTH");
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
