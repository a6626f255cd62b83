package dev.redsim.queue.rescue;

import dev.redsim.queue.connection.RedisConnections;
import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;

import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A rescue engine for any number of threads: every call borrows a connection from the pool for its duration
 * ({@link RescueEngine} itself is one connection, one thread). Producers create here; workers use
 * {@link RescueWorker}. The clock is Redis's TIME through the pool unless one is given.
 *
 * <p>On a Redis Cluster ({@link redis.clients.jedis.JedisCluster}) every call runs on the master serving the queue's
 * slot: all its keys share the hash tag {@code {rescue:<queue>}} (docs/contracts/rescue.md), and so does the clock.
 */
public final class RescueClient {
    private final RedisConnections connections;
    private final byte[] slotKey;
    private final RescueOptions options;
    private final InstantSource clock;

    public RescueClient(JedisPool pool, RescueOptions options, InstantSource clock) {
        this(RedisConnections.of(pool), options, clock);
    }

    /** Over a JedisCluster or a JedisPooled; clock null = Redis's TIME of the queue's master. */
    public RescueClient(UnifiedJedis client, RescueOptions options, InstantSource clock) {
        this(RedisConnections.of(client), options, clock);
    }

    public RescueClient(RedisConnections connections, RescueOptions options, InstantSource clock) {
        this.connections = connections;
        this.slotKey = new RescueKeys(options.queue()).slotKey();
        this.options = options;
        this.clock = clock != null ? clock : RedisClock.over(connections, slotKey);
    }

    /**
     * Runs any {@link RescueEngine} operation on a pooled connection; on a cluster, again while a slot migration
     * refuses it (RedisConnections.transition), so give it one transition at a time.
     */
    public <T> T with(Function<RescueEngine, T> operation) {
        return connections.transition(slotKey, jedis -> operation.apply(new RescueEngine(jedis, clock, options)));
    }

    public Optional<Task> create(Task task) {
        return with(e -> e.create(task));
    }

    /** Creates every task in order, in one script call (see {@link RescueEngine#createMany}). */
    public List<Optional<Task>> createMany(List<Task> tasks) {
        return with(e -> e.createMany(tasks));
    }

    public boolean exists(Task query) {
        return with(e -> e.exists(query));
    }

    public int expire() {
        return with(RescueEngine::expire);
    }

    public int ticker() {
        return with(RescueEngine::ticker);
    }

    public List<Task> list() {
        return with(RescueEngine::list);
    }
}
