package dev.redsim.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.redsim.conformance.resp.RespClient;
import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RAtomicLong;
import org.redisson.api.RBatch;
import org.redisson.api.RBucket;
import org.redisson.api.RLock;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redisson in cluster mode on a simulated and on a real 3-master cluster: it reads the topology, and its objects
 * (buckets, atomic longs, maps, a lock, whose operations are Lua scripts with their keys in one slot) work on keys
 * of every node; an atomic batch of keys of one hash tag runs as one MULTI/EXEC on the tag's node.
 */
class RedissonClusterClientTest {
    private static RedissonClient redisson(ClusterUnderTest cluster) {
        Config config = new Config();
        config.useClusterServers()
                .addNodeAddress("redis://" + cluster.host() + ":" + cluster.ports().get(0))
                .setScanInterval(60_000) // the topology does not change here: no background rescans meanwhile
                .setMasterConnectionMinimumIdleSize(1)
                .setSlaveConnectionMinimumIdleSize(1);
        return Redisson.create(config);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void objectsOnEveryNode(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which)) {
            RedissonClient redisson = redisson(cluster);
            try {
                for (int i = 0; i < 200; i++) {
                    RBucket<String> bucket = redisson.getBucket("bucket:" + i);
                    bucket.set("value:" + i);
                    RAtomicLong counter = redisson.getAtomicLong("counter:" + i);
                    assertThat(counter.addAndGet(i)).isEqualTo(i);
                }
                for (int i = 0; i < 200; i++) {
                    assertThat(redisson.<String>getBucket("bucket:" + i).get()).isEqualTo("value:" + i);
                }
                RMap<String, String> map = redisson.getMap("map");
                map.put("a", "1");
                assertThat(map.putIfAbsent("a", "2")).isEqualTo("1");
                assertThat(map.get("a")).isEqualTo("1");
                RLock lock = redisson.getLock("lock");
                assertThat(lock.tryLock(1, 10, TimeUnit.SECONDS)).isTrue();
                assertThat(lock.isLocked()).isTrue();
                lock.unlock();
                assertThat(lock.isLocked()).isFalse();
                assertThat(redisson.getKeys().count()).isEqualTo(401);
            } finally {
                redisson.shutdown();
            }
        }
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"simulator", "redis"})
    void atomicBatchWithinOneHashTag(String which) throws Exception {
        try (ClusterUnderTest cluster = ClusterUnderTest.start(which)) {
            RedissonClient redisson = redisson(cluster);
            try {
                redisson.getAtomicLong("{order}:count").set(41);
                long execsBefore = execCalls(cluster);
                RBatch batch = redisson.createBatch(BatchOptions.defaults()
                        .executionMode(BatchOptions.ExecutionMode.IN_MEMORY_ATOMIC));
                batch.getBucket("{order}:state").setAsync("paid");
                batch.getAtomicLong("{order}:count").incrementAndGetAsync();
                batch.getMap("{order}:lines").fastPutAsync("sku-1", "2");
                BatchResult<?> result = batch.execute();
                assertThat(new ArrayList<Object>(result.getResponses())).containsExactly(null, 42L, true);
                assertThat(execCalls(cluster) - execsBefore).as("EXEC calls on every node").isEqualTo(1);
                assertThat(redisson.<String>getBucket("{order}:state").get()).isEqualTo("paid");
                assertThat(redisson.getAtomicLong("{order}:count").get()).isEqualTo(42);
                assertThat(redisson.<String, String>getMap("{order}:lines").get("sku-1")).isEqualTo("2");
            } finally {
                redisson.shutdown();
            }
        }
    }

    private static final Pattern EXEC_CALLS = Pattern.compile("cmdstat_exec:calls=(\\d+)");

    /** EXEC calls counted by every node of the cluster. */
    private static long execCalls(ClusterUnderTest cluster) {
        long calls = 0;
        List<Integer> ports = cluster.ports();
        for (int port : ports) {
            try (RespClient client = new RespClient(cluster.host(), port)) {
                Matcher m = EXEC_CALLS.matcher(client.call("INFO", "commandstats").text());
                calls += m.find() ? Long.parseLong(m.group(1)) : 0;
            }
        }
        return calls;
    }
}
