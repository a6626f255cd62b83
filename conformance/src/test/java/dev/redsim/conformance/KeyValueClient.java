package dev.redsim.conformance;

import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import redis.clients.jedis.JedisCluster;

/**
 * What the cluster-client tests do with keys, the three cluster clients behind one face so that one workload runs on
 * each of them (ClusterClientsDuringMigrationTest, ClusterClientsDuringFailoverTest).
 */
interface KeyValueClient {
    void set(String key, String value);

    String get(String key);

    long incr(String key);

    static KeyValueClient of(JedisCluster jedis) {
        return new KeyValueClient() {
            public void set(String key, String value) { jedis.set(key, value); }
            public String get(String key) { return jedis.get(key); }
            public long incr(String key) { return jedis.incr(key); }
        };
    }

    static KeyValueClient of(RedisAdvancedClusterCommands<String, String> lettuce) {
        return new KeyValueClient() {
            public void set(String key, String value) { lettuce.set(key, value); }
            public String get(String key) { return lettuce.get(key); }
            public long incr(String key) { return lettuce.incr(key); }
        };
    }

    static KeyValueClient of(RedissonClient redisson) {
        return new KeyValueClient() {
            public void set(String key, String value) {
                redisson.<String>getBucket(key, StringCodec.INSTANCE).set(value);
            }
            public String get(String key) { return redisson.<String>getBucket(key, StringCodec.INSTANCE).get(); }
            public long incr(String key) { return redisson.getAtomicLong(key).incrementAndGet(); }
        };
    }
}
