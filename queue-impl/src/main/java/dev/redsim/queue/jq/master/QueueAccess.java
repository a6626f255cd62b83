package dev.redsim.queue.jq.master;

import dev.redsim.queue.jq.JobQueue;
import dev.redsim.queue.jq.JqKeys;
import dev.redsim.queue.jq.JqOptions;
import dev.redsim.queue.script.Transitions;
import dev.redsim.queue.connection.RedisConnections;

import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * A pooled connection per operation: {@link JobQueue} is single-connection, the master is multi-threaded. On a Redis
 * Cluster the connection is one to the master of the namespace's slot (every key shares the prefix's hash tag).
 */
final class QueueAccess implements AutoCloseable {
    private final RedisConnections connections;
    private final AutoCloseable owned;
    private final JqKeys keys;
    private final InstantSource clock;
    private final JqOptions options;
    /**
     * Only for Transitions.OPTIMISTIC: this master's threads make their WATCH/MULTI claims one at a time, because
     * concurrent claims of the ready set's head conflict and all but one start over, which under load cost more
     * round trips than the claims themselves. Scripted claims (the default), constrained ones included, are atomic
     * on the server, never conflict, and take no lock: the master's threads claim in parallel.
     */
    private final ReentrantLock optimisticClaims = new ReentrantLock();

    /** {@code owned}: what closing this closes (the master's own pool), or null when the caller owns the client. */
    QueueAccess(RedisConnections connections, AutoCloseable owned, JqKeys keys, InstantSource clock,
                JqOptions options) {
        connections.requireHashTag("JQ key prefix", keys.prefix());
        this.connections = connections;
        this.owned = owned;
        this.keys = keys;
        this.clock = clock;
        this.options = options;
    }

    /** One operation; on a cluster, again while a slot migration refuses it (RedisConnections.transition). */
    <T> T with(Function<JobQueue, T> operation) {
        return connections.transition(keys.slotKey(), jedis -> operation.apply(new JobQueue(jedis, keys, clock, options)));
    }

    /** Claims, waiting up to {@code waitMillis} for an eligible job. */
    Optional<dev.redsim.queue.jq.Assignment> claimWaiting(String worker, long waitMillis, Signal signal)
            throws InterruptedException {
        List<dev.redsim.queue.jq.Assignment> claimed = claimManyWaiting(worker, 1, waitMillis, signal);
        return claimed.isEmpty() ? Optional.empty() : Optional.of(claimed.get(0));
    }

    /** Up to {@code max} jobs, waiting up to {@code waitMillis} for at least one. */
    List<dev.redsim.queue.jq.Assignment> claimManyWaiting(String worker, int max, long waitMillis, Signal signal)
            throws InterruptedException {
        long end = System.nanoTime() + waitMillis * 1_000_000;
        while (true) {
            long seen = signal.generation();
            List<dev.redsim.queue.jq.Assignment> claimed = claimMany(worker, max);
            long left = (end - System.nanoTime()) / 1_000_000;
            if (!claimed.isEmpty() || left <= 0) {
                return claimed;
            }
            signal.await(seen, Math.min(left, 100));
        }
    }

    /** One claim (serialized only with Transitions.OPTIMISTIC, see {@link #optimisticClaims}). */
    Optional<dev.redsim.queue.jq.Assignment> claim(String worker) {
        List<dev.redsim.queue.jq.Assignment> claimed = claimMany(worker, 1);
        return claimed.isEmpty() ? Optional.empty() : Optional.of(claimed.get(0));
    }

    List<dev.redsim.queue.jq.Assignment> claimMany(String worker, int max) {
        if (options.transitions() == Transitions.OPTIMISTIC) {
            // Every claim is optimistic: take the lock before a connection, so that waiting threads hold none.
            optimisticClaims.lock();
            try {
                return with(q -> q.claimMany(worker, max, null));
            } finally {
                optimisticClaims.unlock();
            }
        }
        return with(q -> q.claimMany(worker, max));
    }

    @Override
    public void close() {
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the master's Redis pool", e);
            }
        }
    }
}
