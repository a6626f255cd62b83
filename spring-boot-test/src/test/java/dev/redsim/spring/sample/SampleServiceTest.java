package dev.redsim.spring.sample;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.spring.test.AutoConfigureRedisSimulator;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.spring.data.connection.RedissonConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole service on the class path of a typical one (Spring Data Redis, the cache starter, Redisson's starter),
 * connected to a simulator by the annotation alone: no property names a server.
 */
@SpringBootTest
@AutoConfigureRedisSimulator
class SampleServiceTest {
    @Autowired
    RedisSimulator redis;
    @Autowired
    PersonRepository people;
    @Autowired
    ExpiredPeople expired;
    @Autowired
    PriceService prices;
    @Autowired
    RedissonClient redisson;
    @Autowired
    StringRedisTemplate template;
    @Autowired
    RedisConnectionFactory connectionFactory;
    @Autowired
    RedisConnectionDetails connectionDetails;

    @Test
    void theContextIsConnectedToItsSimulator() {
        assertThat(connectionDetails.getStandalone().getPort()).isEqualTo(redis.port());
        // With Redisson's starter on the class path, Spring Data runs on Redisson's connection factory, which
        // takes the same connection details.
        assertThat(connectionFactory).isInstanceOf(RedissonConnectionFactory.class);
        template.opsForValue().set("greeting", "hello");
        RedisClient client = RedisClient.create(redis.uri().toString());
        try (StatefulRedisConnection<String, String> direct = client.connect()) {
            assertThat(direct.sync().get("greeting")).isEqualTo("hello");
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void repositoriesFindByTheirIndexes() {
        Person ada = people.save(new Person("ada", null));
        people.save(new Person("grace", null));
        assertThat(people.findByName("ada")).extracting(Person::getId).containsExactly(ada.getId());
        assertThat(people.count()).isEqualTo(2);
    }

    @Test
    void expiredEntitiesAreCleanedUpThroughKeyspaceEventsWhenTheClockMoves() throws InterruptedException {
        expired.clear();
        Person temporary = people.save(new Person("temporary", 10L));
        Person lasting = people.save(new Person("lasting", null));
        redis.advanceTime(Duration.ofSeconds(11));
        assertThat(expired.next(Duration.ofSeconds(10))).isEqualTo(temporary.getId());
        // Spring Data removes the expired entity from the index set and the secondary indexes when it handles
        // the event; that happens on the listener's thread, so wait for it (bounded).
        Eventually.holds(() -> !template.opsForSet().isMember("people", temporary.getId()));
        assertThat(people.findById(temporary.getId())).isEmpty();
        assertThat(people.findByName("temporary")).isEmpty();
        assertThat(people.findById(lasting.getId())).isPresent();
    }

    @Test
    void cacheEntriesLiveAsLongAsTheSimulatorsClockSays() {
        int before = prices.computations();
        assertThat(prices.priceInCents("apple")).isEqualTo(500);
        assertThat(prices.priceInCents("apple")).isEqualTo(500);
        assertThat(prices.computations()).isEqualTo(before + 1);
        redis.advanceTime(Duration.ofSeconds(59));
        prices.priceInCents("apple");
        assertThat(prices.computations()).isEqualTo(before + 1);
        redis.advanceTime(Duration.ofSeconds(2));
        prices.priceInCents("apple");
        assertThat(prices.computations()).isEqualTo(before + 2);
    }

    @Test
    void redissonLocksAndMapsRunOnTheSameSimulator() throws InterruptedException {
        RLock lock = redisson.getLock("orders-lock");
        assertThat(lock.tryLock(0, 30, TimeUnit.SECONDS)).isTrue();
        RMap<String, String> carts = redisson.getMap("carts");
        carts.put("ada", "3 apples");
        assertThat(carts.get("ada")).isEqualTo("3 apples");
        assertThat(template.hasKey("orders-lock")).isTrue();
        assertThat(template.type("carts").code()).isEqualTo("hash");
        redis.advanceTime(Duration.ofSeconds(31)); // the lease ends on the simulator's clock
        assertThat(template.hasKey("orders-lock")).isFalse();
    }

    @Nested
    class NestedClasses {
        @Autowired
        RedisSimulator nestedRedis;

        @Test
        void shareTheEnclosingClassesContextAndSimulator() {
            assertThat(nestedRedis).isSameAs(redis);
            assertThat(template.keys("*")).isEmpty(); // emptied before this test too
        }
    }
}
