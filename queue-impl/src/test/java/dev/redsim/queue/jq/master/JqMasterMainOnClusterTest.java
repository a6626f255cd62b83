package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.Msgpack;
import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.simulator.RedisCluster;
import dev.redsim.simulator.RedisSimulator;
import org.junit.jupiter.api.Test;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MasterMain's wiring on a Redis Cluster (a simulated 3-master one): started from its command line with --cluster seed
 * nodes and a tagged prefix, it runs jobs pushed, taken and reported over its HTTP API, and every key of the namespace
 * is on the master of the tag's slot; an untagged prefix is refused before anything is served.
 */
class JqMasterMainOnClusterTest {
    @Test
    void aMasterStartedWithClusterSeedsRunsJobsOverHttp() throws Exception {
        try (RedisCluster cluster = RedisSimulator.cluster().masters(3).start()) {
            List<String> addresses = cluster.addresses();
            MasterMain.Options options = MasterMain.parse(new String[] {"--port", "0", "--prefix", "{jqmain}:",
                "--cluster", "redis://" + addresses.get(0), "--cluster", addresses.get(1) + "," + addresses.get(2)});
            assertThat(options.clusterSeeds()).hasSize(3);
            try (MasterMain.Running running = MasterMain.launch(options);
                 JqPusher pusher = new JqPusher(running.master().uri())) {
                assertThat(running.redisDescription()).startsWith("Redis Cluster via");
                List<JqPusher.Job> jobs = new ArrayList<>();
                for (int i = 0; i < 12; i++) {
                    jobs.add(JqPusher.job("square", ValueFactory.newInteger(i)).keepResult(true));
                }
                List<Long> ids = pusher.enqueueMany(jobs);
                JqWorker worker = new JqWorker(running.master().uri(), "w", (name, argument) -> {
                    int n = argument.asIntegerValue().toInt();
                    return ValueFactory.newInteger(n * n);
                });
                assertThat(worker.runBatch(5, 0) + worker.runBatch(5, 0) + worker.runBatch(5, 0)).isEqualTo(12);
                for (int i = 0; i < 12; i++) {
                    Map<String, Value> outcome = Msgpack.fields(pusher.takeResult(ids.get(i)).orElseThrow());
                    assertThat(outcome.get("result").asIntegerValue().toInt()).isEqualTo(i * i);
                    assertThat(pusher.state(ids.get(i))).hasValue("succeeded");
                }
                int owner = cluster.ownerOf(JedisClusterCRC16.getSlot("{jqmain}"));
                HostAndPort master = HostAndPort.from(addresses.get(owner));
                try (Jedis jedis = new Jedis(master.getHost(), master.getPort())) {
                    assertThat(jedis.hget("{jqmain}:stats:square", "succeeded")).isEqualTo("12");
                }
            }
        }
    }

    @Test
    void anUntaggedPrefixOnAClusterIsRefused() {
        try (RedisCluster cluster = RedisSimulator.cluster().masters(3).start()) {
            MasterMain.Options options = MasterMain.parse(new String[] {"--port", "0",
                "--cluster", cluster.addresses().get(0)});
            assertThatThrownBy(() -> MasterMain.launch(options)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has no hash tag");
            assertThatThrownBy(() -> MasterMain.parse(new String[] {"--redis", "redis://h:1", "--cluster", "h:2"}))
                    .hasMessageContaining("exclude each other");
            assertThatThrownBy(() -> MasterMain.parse(new String[] {"--cluster", "nohostport"}))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
