package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.JobQueue;
import dev.redsim.queue.jq.JqKeys;
import dev.redsim.queue.jq.JqOptions;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/** A pooled connection per operation: {@link JobQueue} is single-connection, the master is multi-threaded. */
final class QueueAccess implements AutoCloseable {
    private final JedisPool pool;
    private final JqKeys keys;
    private final InstantSource clock;
    private final JqOptions options;
    /**
     * Claims of this master's threads go one at a time. Every claim WATCHes and rewrites the ready set, so two
     * concurrent claims always conflict and all but one start over: under load that cost more Redis round trips
     * than the claims themselves. Serializing them here removes those conflicts; claims from other masters (and
     * enqueues) are still caught by the WATCH, which alone guarantees atomicity.
     */
    private final ReentrantLock claims = new ReentrantLock();

    QueueAccess(JedisPool pool, JqKeys keys, InstantSource clock, JqOptions options) {
        this.pool = pool;
        this.keys = keys;
        this.clock = clock;
        this.options = options;
    }

    <T> T with(Function<JobQueue, T> operation) {
        try (Jedis jedis = pool.getResource()) {
            return operation.apply(new JobQueue(jedis, keys, clock, options));
        }
    }

    /** Claims, waiting up to {@code waitMillis} for an eligible job. */
    Optional<dev.redsim.queue.jq.Assignment> claimWaiting(String worker, long waitMillis, Signal signal)
            throws InterruptedException {
        long end = System.nanoTime() + waitMillis * 1_000_000;
        while (true) {
            long seen = signal.generation();
            Optional<dev.redsim.queue.jq.Assignment> claimed = claim(worker);
            long left = (end - System.nanoTime()) / 1_000_000;
            if (claimed.isPresent() || left <= 0) {
                return claimed;
            }
            signal.await(seen, Math.min(left, 100));
        }
    }

    /** One claim, serialized with this master's other claims (see {@link #claims}). */
    Optional<dev.redsim.queue.jq.Assignment> claim(String worker) {
        claims.lock();
        try {
            return with(q -> q.claim(worker));
        } finally {
            claims.unlock();
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
