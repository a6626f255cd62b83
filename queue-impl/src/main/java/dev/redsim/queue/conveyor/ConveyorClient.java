package dev.redsim.queue.conveyor;

import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.InstantSource;
import java.util.function.Function;

/**
 * Conveyor for any number of threads: every call borrows a connection from the pool for its duration
 * ({@link Conveyor} itself is one connection, one thread). Producers add here; workers use {@link ConveyorWorker}.
 * The clock is Redis's TIME through the pool unless one is given.
 */
public final class ConveyorClient {
    private final JedisPool pool;
    private final InstantSource clock;
    private final ConveyorOptions options;
    private final ConveyorKeys keys;

    public ConveyorClient(JedisPool pool, ConveyorOptions options, ConveyorKeys keys, InstantSource clock) {
        this.pool = pool;
        this.options = options;
        this.keys = keys;
        this.clock = clock != null ? clock : RedisClock.over(pool);
    }

    public ConveyorClient(JedisPool pool) {
        this(pool, ConveyorOptions.defaults(), ConveyorKeys.standard(), null);
    }

    /** Runs any {@link Conveyor} operation on a pooled connection. */
    public <T> T with(Function<Conveyor, T> operation) {
        try (Jedis jedis = pool.getResource()) {
            return operation.apply(new Conveyor(jedis, clock, options, keys));
        }
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
