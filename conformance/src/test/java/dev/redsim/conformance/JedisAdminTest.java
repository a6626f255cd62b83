package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;
import redis.clients.jedis.resps.CommandDocument;
import redis.clients.jedis.resps.CommandInfo;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real client library's admin API against both servers: Jedis must parse every server, client and COMMAND
 * reply of the simulator as it parses Redis's (shapes tools depend on), with the same results where they
 * are deterministic.
 */
class JedisAdminTest {
    static List<RedisTarget> targets() {
        return List.of(SharedTargets.reference(), SharedTargets.simulator());
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void serverAndConfig(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            jedis.select(7);
            jedis.flushDB();
            jedis.set("a", "1");
            assertThat(jedis.dbSize()).isEqualTo(1);
            assertThat(jedis.info("keyspace")).contains("db7:keys=1,expires=0,avg_ttl=0");
            assertThat(jedis.info()).contains("redis_version:7.0.15");
            assertThat(jedis.time()).hasSize(2);
            assertThat(jedis.lastsave()).isPositive();
            assertThat(jedis.configGet("maxmemory")).isEqualTo(Map.of("maxmemory", "0"));
            assertThat(jedis.configGet("maxmemory", "hz")).containsEntry("hz", "10").hasSize(2);
            assertThat(jedis.configSet("maxmemory", "1mb")).isEqualTo("OK");
            assertThat(jedis.configGet("maxmemory")).containsEntry("maxmemory", "1048576");
            assertThat(jedis.configSet(Map.of("maxmemory", "0"))).isEqualTo("OK");
            assertThat(jedis.configResetStat()).isEqualTo("OK");
            assertThat(jedis.swapDB(7, 8)).isEqualTo("OK");
            assertThat(jedis.dbSize()).isZero();
            assertThat(jedis.swapDB(7, 8)).isEqualTo("OK");
            assertThat(jedis.memoryUsage("a")).isEqualTo(48);
            jedis.flushDB();
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void clientCommands(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port());
             Jedis other = new Jedis(target.host(), target.port())) {
            jedis.clientSetname("jedis-admin");
            assertThat(jedis.clientGetname()).isEqualTo("jedis-admin");
            long id = jedis.clientId();
            assertThat(jedis.clientInfo()).startsWith("id=" + id + " ");
            assertThat(jedis.clientList(ClientType.NORMAL)).contains("name=jedis-admin");
            assertThat(jedis.clientList(id)).contains("id=" + id + " ");
            long otherId = other.clientId();
            assertThat(jedis.clientKill(new ClientKillParams().id(Long.toString(otherId)))).isEqualTo(1);
            assertThat(jedis.clientPause(0)).isEqualTo("OK");
            assertThat(jedis.clientUnpause()).isEqualTo("OK");
            assertThat(jedis.clientNoEvictOn()).isEqualTo("OK");
            assertThat(jedis.clientNoEvictOff()).isEqualTo("OK");
        }
    }

    @ParameterizedTest(autoCloseArguments = false)
    @MethodSource("targets")
    void commandIntrospection(RedisTarget target) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            assertThat(jedis.commandCount()).isPositive();
            // Jedis 5.2 cannot parse a container's entry (CONFIG) even from Redis, so only leaf commands here.
            Map<String, CommandInfo> info = jedis.commandInfo("get", "dbsize");
            CommandInfo get = info.get("get");
            assertThat(get.getArity()).isEqualTo(2);
            assertThat(get.getFlags()).contains("readonly", "fast");
            assertThat(get.getAclCategories()).contains("@read", "@string", "@fast");
            assertThat(get.getFirstKey()).isEqualTo(1);
            assertThat(info.get("dbsize").getAclCategories()).containsExactly("@keyspace", "@read", "@fast");
            Map<String, CommandDocument> docs = jedis.commandDocs("get");
            assertThat(docs.get("get").getSummary()).isNotBlank();
            assertThat(docs.get("get").getSince()).isEqualTo("1.0.0");
            assertThat(jedis.commandGetKeys("mset", "a", "1", "b", "2")).containsExactly("a", "b");
            assertThat(jedis.commandGetKeysAndFlags("get", "k")).hasSize(1);
            assertThat(jedis.commandList()).contains("get", "config|get", "client|list");
            assertThat(jedis.commandListFilterBy(
                    redis.clients.jedis.params.CommandListFilterByParams.commandListFilterByParams()
                            .filterByPattern("dbsi*"))).containsExactly("dbsize");
        }
    }
}
