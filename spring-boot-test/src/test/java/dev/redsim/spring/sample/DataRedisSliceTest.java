package dev.redsim.spring.sample;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.spring.test.AutoConfigureRedisSimulator;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.data.redis.DataRedisTest;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The @DataRedisTest slice (Spring Boot's own Redis auto-configuration only: Lettuce) on a simulator. */
@DataRedisTest
@AutoConfigureRedisSimulator
class DataRedisSliceTest {
    @Autowired
    PersonRepository people;
    @Autowired
    RedisConnectionFactory connectionFactory;
    @Autowired
    RedisSimulator redis;

    @Test
    void repositoriesRunOnLettuceAgainstTheSimulator() {
        assertThat(connectionFactory).isInstanceOf(LettuceConnectionFactory.class);
        assertThat(((LettuceConnectionFactory) connectionFactory).getPort()).isEqualTo(redis.port());
        Person ada = people.save(new Person("ada", 60L));
        assertThat(people.findByName("ada")).extracting(Person::getId).containsExactly(ada.getId());
        redis.advanceTime(Duration.ofSeconds(61));
        assertThat(people.findById(ada.getId())).isEmpty();
    }
}
