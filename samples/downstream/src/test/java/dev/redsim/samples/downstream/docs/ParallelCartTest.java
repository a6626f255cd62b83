package dev.redsim.samples.downstream.docs;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.junit.RedisSimulatorTest;
import dev.redsim.simulator.junit.SimulatorScope;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import redis.clients.jedis.Jedis;

import static org.junit.jupiter.api.Assertions.assertEquals;

@RedisSimulatorTest(scope = SimulatorScope.TEST) // each test its own simulator: nothing shared, nothing waits
@Execution(ExecutionMode.CONCURRENT)
class ParallelCartTest {
    @RepeatedTest(4)
    void eachTestOwnsItsData(RedisSimulator redis) {
        try (Jedis jedis = new Jedis(redis.host(), redis.port())) {
            for (int i = 1; i <= 50; i++) {
                assertEquals(i, jedis.incr("visits"));
            }
            assertEquals(1, jedis.dbSize());
        }
    }
}
