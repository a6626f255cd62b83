package dev.redsim.samples.downstream;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.args.ListDirection;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Jedis, as a user's test would use it: plain commands, TTLs under the simulator's clock, a pipeline, MULTI/EXEC. */
@ExtendWith(RedisSimulatorExtension.class)
class JedisSampleTest {
    @Test
    void abandonedCartExpiresWhenTheClockMoves(RedisSimulator redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            jedis.setex("cart:42", 3600, "3 items");
            redis.advanceTime(Duration.ofMinutes(59));
            assertThat(jedis.get("cart:42")).isEqualTo("3 items");
            redis.advanceTime(Duration.ofMinutes(1));
            assertThat(jedis.get("cart:42")).isNull();
        }
    }

    @Test
    void pipelineAndTransaction(RedisSimulator redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            Pipeline pipeline = jedis.pipelined();
            for (int i = 0; i < 100; i++) {
                pipeline.rpush("jobs", "job-" + i);
            }
            Response<Long> length = pipeline.llen("jobs");
            pipeline.sync();
            assertThat(length.get()).isEqualTo(100);

            Transaction tx = jedis.multi();
            tx.lmove("jobs", "working", ListDirection.LEFT, ListDirection.RIGHT);
            tx.incr("claimed");
            List<Object> results = tx.exec();
            assertThat(results).containsExactly("job-0", 1L);
            assertThat(jedis.lrange("working", 0, -1)).containsExactly("job-0");
        }
    }
}
