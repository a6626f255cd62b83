package dev.redsim.queue.conveyor;

import dev.redsim.queue.connection.RedisConnections;
import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;

import java.time.InstantSource;
import java.util.function.Function;

/**
 * Conveyor for any number of threads: every call borrows a connection from the pool for its duration
 * ({@link Conveyor} itself is one connection, one thread). Producers add here; workers use {@link ConveyorWorker}.
 * The clock is Redis's TIME through the pool unless one is given.
 *
 * <p>On a Redis Cluster ({@link redis.clients.jedis.JedisCluster}) the key prefix must carry a hash tag (e.g.
 * {@code new ConveyorKeys("{emails}:")}): every call then runs on the node serving that slot, and so does the clock.
 */
public final class ConveyorClient {
    private final RedisConnections connections;
    private final InstantSource clock;
    private final ConveyorOptions options;
    private final ConveyorKeys keys;

    public ConveyorClient(JedisPool pool, ConveyorOptions options, ConveyorKeys keys, InstantSource clock) {
        this(RedisConnections.of(pool), options, keys, clock);
    }

    /** Over a JedisCluster (keys with a hash tag) or a JedisPooled. */
    public ConveyorClient(UnifiedJedis client, ConveyorOptions options, ConveyorKeys keys, InstantSource clock) {
        this(RedisConnections.of(client), options, keys, clock);
    }

    public ConveyorClient(RedisConnections connections, ConveyorOptions options, ConveyorKeys keys,
                          InstantSource clock) {
        connections.requireHashTag("Conveyor key prefix", keys.prefix());
        this.connections = connections;
        this.options = options;
        this.keys = keys;
        this.clock = clock != null ? clock : RedisClock.over(connections, keys.slotKey());
    }

    public ConveyorClient(JedisPool pool) {
        this(pool, ConveyorOptions.defaults(), ConveyorKeys.standard(), null);
    }

    /**
     * Runs any {@link Conveyor} operation on a pooled connection; on a cluster, again while a slot migration refuses it
     * (RedisConnections.transition), so give it one transition at a time.
     */
    public <T> T with(Function<Conveyor, T> operation) {
        return connections.transition(keys.slotKey(), jedis -> operation.apply(new Conveyor(jedis, clock, options, keys)));
    }

    public Job add(Deadline deadline, Job job, boolean deadParent) {
        return with(c -> c.add(deadline, job, deadParent));
    }

    public int runScheduler(Deadline deadline) {
        return with(c -> c.runScheduler(deadline));
    }

    public int recoverExpiredLeases(Deadline deadline) {
        return with(c -> c.recoverExpiredLeases(deadline));
    }
}
