package dev.redsim.spring.sample.docs;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.spring.sample.Person;
import dev.redsim.spring.sample.PersonRepository;
import dev.redsim.spring.test.AutoConfigureRedisSimulator;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest
@AutoConfigureRedisSimulator // no properties: the context connects to a simulator that lives as long as it does
class PersonExpiryTest {
    @Autowired
    PersonRepository people;
    @Autowired
    RedisSimulator redis; // the context's simulator, for time control

    @Test
    void visitorsAreForgottenAfterAMinute() {
        Person visitor = people.save(new Person("visitor", 60L)); // @TimeToLive: 60 s
        redis.advanceTime(Duration.ofSeconds(59));
        assertThat(people.findById(visitor.getId())).isPresent();
        redis.advanceTime(Duration.ofSeconds(2));
        assertThat(people.findById(visitor.getId())).isEmpty();
    }
}
