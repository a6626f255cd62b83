package dev.redsim.queue.thoonk;

import dev.redsim.queue.worker.WorkerThreads;
import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;
import dev.redsim.queue.connection.RedisConnections;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A worker runtime for a thoonk job feed: {@code concurrency} threads each take a job with a blocking get (BRPOP,
 * no polling), run the handler, and finish the job with its result; a handler that throws cancels the job (the
 * contract's retry: back in line, a failure counted) or, at the failure limit, stalls it. While a handler runs, a
 * heartbeat renews its claim every third of the claim timeout, so maintenance never takes back a job that is being
 * worked on. The same upkeep thread runs the contract's maintenance every {@code maintenance} (an id lost between a
 * BRPOP and its claim is requeued, a timed-out claim cancelled or stalled), as the other runtimes run their
 * recovery. {@link #stop(Duration)} stops taking jobs, waits for running handlers up to the grace period, then
 * hands the rest back (not counted as failures) and interrupts their handlers. Thread-safe; every Redis call uses
 * a connection of the given pool (size it at least concurrency + 2).
 *
 * <pre>{@code
 * try (JedisPool pool = new JedisPool("redis-host", 6379);
 *      JobWorker worker = JobWorker.start(pool, "{orders}", JobWorkerOptions.defaults().withConcurrency(4),
 *              run -> ship(run.item()))) {
 *     ...
 * }   // close() = stop(30 s)
 * }</pre>
 *
 * <p>On a Redis Cluster, start it with a {@link redis.clients.jedis.JedisCluster} and a feed name carrying a hash tag
 * ("{orders}"): every key of the feed is then in one slot, and every call (the blocking get included) and the clock
 * go to the node serving it.
 */
public final class JobWorker implements AutoCloseable {
    private enum State { RUNNING, RELEASED, DONE }

    /** A job being run: its latest claim (renewed by the heartbeat) and the thread running it. */
    private static final class InFlight {
        Claim claim;
        State state = State.RUNNING;
        final Thread thread;

        InFlight(Claim claim, Thread thread) {
            this.claim = claim;
            this.thread = thread;
        }
    }

    private final RedisConnections connections;
    private final byte[] slotKey;
    private final String feed;
    private final JobWorkerOptions options;
    private final Clock clock;
    private final JobRunHandler handler;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final ScheduledExecutorService heartbeat;
    /** What maintenance remembers between passes (guarded by itself). */
    private final Map<String, Long> unaccountedSince = new java.util.HashMap<>();

    private JobWorker(RedisConnections connections, String feed, JobWorkerOptions options, JobRunHandler handler) {
        connections.requireHashTag("thoonk feed name", feed);
        this.connections = connections;
        this.slotKey = new ThoonkKeys(feed).slotKey();
        this.feed = feed;
        this.options = options;
        this.clock = options.clock() != null ? options.clock() : RedisClock.over(connections, slotKey);
        this.handler = handler;
        this.heartbeat = WorkerThreads.scheduler("thoonk-heartbeat-" + feed);
        long period = Math.max(1, options.claimTimeout().toMillis() / 3);
        heartbeat.scheduleWithFixedDelay(this::renewClaims, period, period, TimeUnit.MILLISECONDS);
        if (!options.maintenance().isZero()) {
            long every = Math.max(1, options.maintenance().toMillis());
            heartbeat.scheduleWithFixedDelay(this::maintain, 0, every, TimeUnit.MILLISECONDS);
        }
    }

    public static JobWorker start(JedisPool pool, String feed, JobWorkerOptions options, JobRunHandler handler) {
        return start(RedisConnections.of(pool), feed, options, handler);
    }

    /** Over a JedisCluster (a feed name with a hash tag) or a JedisPooled. */
    public static JobWorker start(UnifiedJedis client, String feed, JobWorkerOptions options, JobRunHandler handler) {
        return start(RedisConnections.of(client), feed, options, handler);
    }

    public static JobWorker start(RedisConnections connections, String feed, JobWorkerOptions options,
                                  JobRunHandler handler) {
        JobWorker worker = new JobWorker(connections, feed, options, handler);
        for (int i = 0; i < options.concurrency(); i++) {
            Thread t = WorkerThreads.daemon(worker::loop, "thoonk-worker-" + feed + "-" + i);
            worker.threads.add(t);
            t.start();
        }
        return worker;
    }

    /** True once stop() has begun: no job is taken any more. */
    public boolean stopping() {
        return !running.get();
    }

    /** Jobs being run right now (for tests and monitoring). */
    public int inFlight() {
        return inFlight.size();
    }

    private Job job(Jedis jedis) {
        return new Job(jedis, feed, clock, options.transitions());
    }

    private void loop() {
        while (running.get()) {
            Claim claim;
            try {
                claim = getOrClaimPopped();
                if (claim != null && !running.get()) {
                    Claim taken = claim;
                    // taken while stopping: give it back untouched
                    connections.transition(slotKey, jedis -> {
                        job(jedis).release(taken);
                        return null;
                    });
                    return;
                }
            } catch (RuntimeException e) {
                if (!running.get()) {
                    return;
                }
                // Redis unreachable: an id popped but not claimed is requeued by maintenance. Try again.
                continue;
            }
            if (claim != null) {
                run(claim);
            }
        }
    }

    /**
     * A get, run again while the cluster refuses it (RedisConnections.transition). When the refusal comes between its
     * BRPOP and its claim (the feed's master failed over, or its slot moved, in between), the id popped is claimed on
     * the next try, on the master serving the feed then, instead of popping another and leaving this one to
     * maintenance for a whole claim timeout.
     */
    private Claim getOrClaimPopped() {
        String[] popped = {null};
        return connections.transition(slotKey, jedis -> {
            if (popped[0] != null) {
                return job(jedis).claimPopped(popped[0]);
            }
            return job(jedis).get(options.pollWait(), id -> popped[0] = id);
        });
    }

    private void run(Claim claim) {
        InFlight f = new InFlight(claim, Thread.currentThread());
        inFlight.put(claim.id(), f);
        int attempt;
        try {
            attempt = (int) (long) connections.transition(slotKey, jedis -> job(jedis).failures(claim.id())) + 1;
        } catch (RuntimeException e) {
            // Redis unreachable right after the claim: leave the claim to time out (maintenance hands the job on).
            // Before, this escaped and ended the thread, with the job held in inFlight (renewed by the heartbeat).
            synchronized (f) {
                inFlight.remove(claim.id());
                f.state = State.DONE;
            }
            return;
        }
        String result = null;
        Throwable failure = null;
        try {
            result = handler.run(new JobRun(claim.id(), claim.item(), attempt,
                Instant.ofEpochMilli(claim.claimedAt()).plus(options.claimTimeout())));
        } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
            failure = e;
        }
        Claim latest;
        synchronized (f) {
            inFlight.remove(claim.id());
            if (f.state != State.RUNNING) {
                return; // handed back by stop(): the job is someone else's now
            }
            f.state = State.DONE;
            latest = f.claim;
        }
        Thread.interrupted(); // an interrupt from stop() that came after the handler returned: the outcome stands
        Throwable outcome = failure;
        String answer = result;
        try {
            connections.transition(slotKey, jedis -> {
                Job job = job(jedis);
                if (outcome == null) {
                    job.finish(latest, answer);
                } else if (job.failures(claim.id()) + 1 >= options.maxFailures()) {
                    job.stall(latest);
                } else {
                    job.cancel(latest);
                }
                return null;
            });
        } catch (RuntimeException e) {
            // Redis unreachable: the claim times out and maintenance hands the job to another worker.
        }
    }

    /** One maintenance pass: requeues ids unaccounted for too long, cancels or stalls timed-out claims. */
    private void maintain() {
        synchronized (unaccountedSince) { // the upkeep thread, or a caller of upkeepNow
            maintainOnce();
        }
    }

    private void maintainOnce() {
        try {
            // A timed-out claim counts as a failed run: stalled where a failing run would be (failures + 1 reaching
            // maxFailures), cancelled before that.
            connections.transition(slotKey, jedis -> new JobMaintenance(jedis, feed, clock,
                    new MaintenanceSettings(options.claimTimeout(), options.maxFailures() - 1), null, unaccountedSince,
                    options.transitions()).pass());
        } catch (RuntimeException e) {
            // Redis unreachable now: the next pass tries again
        }
    }

    /** One heartbeat now (the heartbeat thread calls it every third of the claim timeout). */
    public void beat() {
        renewClaims();
    }

    /** The heartbeat: renews every running job's claim; a claim lost meanwhile stays lost (its finish is refused). */
    private void renewClaims() {
        if (inFlight.isEmpty()) {
            return;
        }
        try {
            connections.transition(slotKey, jedis -> {
                Job job = job(jedis);
                for (InFlight f : inFlight.values()) {
                    synchronized (f) {
                        if (f.state == State.RUNNING) {
                            Claim renewed = job.extend(f.claim);
                            if (renewed != null) {
                                f.claim = renewed;
                            }
                        }
                    }
                }
                return null;
            });
        } catch (RuntimeException e) {
            // Redis unreachable now: the next beat tries again, well within the claim timeout.
        }
    }

    /** One round of the upkeep now (the contract's maintenance), as the upkeep thread runs it on its schedule. */
    public void upkeepNow() {
        maintain();
    }

    /**
     * Stops taking jobs, lets running handlers finish for up to {@code grace}, then hands the jobs still running
     * back to the feed (not counted as failures) and interrupts their handlers. Returns when every thread ended
     * (or 5 s after the grace period, for handlers that ignore interruption: their late finish is refused).
     */
    public void stop(Duration grace) {
        running.set(false);
        long deadline = System.nanoTime() + grace.toNanos();
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                WorkerThreads.join(t, TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
        }
        for (InFlight f : inFlight.values()) {
            synchronized (f) {
                if (f.state == State.RUNNING) {
                    f.state = State.RELEASED;
                    try {
                        connections.transition(slotKey, jedis -> {
                            job(jedis).release(f.claim);
                            return null;
                        });
                    } catch (RuntimeException e) {
                        // unreachable: maintenance takes the claim back after its timeout
                    }
                }
            }
            f.thread.interrupt();
        }
        for (Thread t : threads) {
            WorkerThreads.join(t, 5_000);
        }
        heartbeat.shutdownNow();
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(30));
    }
}
