package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisProtocol;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Jedis, a real client, connects with RESP2 and RESP3 and sees the same results on both servers. */
class JedisClientTest {
    @ParameterizedTest
    @EnumSource(RedisProtocol.class)
    void jedisWorksTheSameOnBoth(RedisProtocol protocol) {
        List<Object> want = session(SharedTargets.reference(), protocol);
        List<Object> got = session(SharedTargets.simulator(), protocol);
        assertThat(got).isEqualTo(want);
    }

    private static List<Object> session(RedisTarget target, RedisProtocol protocol) {
        DefaultJedisClientConfig config = DefaultJedisClientConfig.builder().protocol(protocol)
                .clientName("jedis-test").build();
        try (Jedis jedis = new Jedis(new HostAndPort(target.host(), target.port()), config)) {
            jedis.flushAll();
            return List.of(
                    jedis.ping(),
                    jedis.set("jedis:k", "v"),
                    jedis.get("jedis:k"),
                    jedis.incr("jedis:n"),
                    jedis.incrBy("jedis:n", 41),
                    jedis.mget("jedis:k", "jedis:n", "jedis:missing").toString(),
                    jedis.exists("jedis:k"),
                    jedis.del("jedis:k", "jedis:n"),
                    jedis.dbSize(),
                    jedis.clientGetname());
        }
    }
}
