package dev.redsim.samples.downstream.docs;

import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.Jedis;

import static org.junit.jupiter.api.Assertions.assertEquals;

class VisitCounterConformanceTest {
    @AcrossTargets // once on the simulator, once on a redis-server from PATH (or REDIS_URL)
    void countsVisitsPerPage(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            jedis.del("visits:2026-11-23");
            assertEquals(1, jedis.hincrBy("visits:2026-11-23", "/home", 1));
            assertEquals(2, jedis.hincrBy("visits:2026-11-23", "/home", 1));
            assertEquals(1, jedis.hlen("visits:2026-11-23"));
        }
    }
}
