package dev.redsim.queue.rescue;

import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A rescue engine for any number of threads: every call borrows a connection from the pool for its duration
 * ({@link RescueEngine} itself is one connection, one thread). Producers create here; workers use
 * {@link RescueWorker}. The clock is Redis's TIME through the pool unless one is given.
 */
public final class RescueClient {
    private final JedisPool pool;
    private final RescueOptions options;
    private final InstantSource clock;

    public RescueClient(JedisPool pool, RescueOptions options, InstantSource clock) {
        this.pool = pool;
        this.options = options;
        this.clock = clock != null ? clock : RedisClock.over(pool);
    }

    /** Runs any {@link RescueEngine} operation on a pooled connection. */
    public <T> T with(Function<RescueEngine, T> operation) {
        try (Jedis jedis = pool.getResource()) {
            return operation.apply(new RescueEngine(jedis, clock, options));
        }
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
