package dev.redsim.queue.thoonk;

import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;
import dev.redsim.queue.connection.RedisConnections;

import java.time.Clock;
import java.util.Set;
import java.util.function.Function;

/**
 * A thoonk job feed that any number of threads may share: every call borrows a connection from the pool for its
 * duration ({@link Job} itself is one connection, one thread). Producers put here; workers use {@link JobWorker}.
 * The clock is Redis's TIME through the pool unless one is given. On a Redis Cluster
 * ({@link redis.clients.jedis.JedisCluster}) the feed name must carry a hash tag ("{orders}"): every call then runs on
 * the node serving that slot, and so does the clock.
 */
public final class JobFeed {
    private final RedisConnections connections;
    private final byte[] slotKey;
    private final String feed;
    private final Clock clock;

    public JobFeed(JedisPool pool, String feed, Clock clock) {
        this(RedisConnections.of(pool), feed, clock);
    }

    /** Over a JedisCluster (a feed name with a hash tag) or a JedisPooled; clock null = Redis's TIME. */
    public JobFeed(UnifiedJedis client, String feed, Clock clock) {
        this(RedisConnections.of(client), feed, clock);
    }

    public JobFeed(RedisConnections connections, String feed, Clock clock) {
        connections.requireHashTag("thoonk feed name", feed);
        this.connections = connections;
        this.slotKey = new ThoonkKeys(feed).slotKey();
        this.feed = feed;
        this.clock = clock != null ? clock : RedisClock.over(connections, slotKey);
    }

    public JobFeed(JedisPool pool, String feed) {
        this(pool, feed, null);
    }

    /**
     * Runs any {@link Job} operation on a pooled connection (blocking gets hold it for their timeout); on a cluster,
     * again while a slot migration refuses it (RedisConnections.transition), so give it one transition at a time.
     */
    public <T> T with(Function<Job, T> operation) {
        return connections.transition(slotKey, jedis -> operation.apply(new Job(jedis, feed, clock)));
    }

    public String put(String item) {
        return with(job -> job.put(item));
    }

    public String putHighPriority(String item) {
        return with(job -> job.putHighPriority(item));
    }

    public boolean retry(String id) {
        return with(job -> job.retry(id));
    }

    public boolean retract(String id) {
        return with(job -> job.retract(id));
    }

    public long failures(String id) {
        return with(job -> job.failures(id));
    }

    public Set<String> ids() {
        return with(Job::ids);
    }
}
