package dev.redsim.queue.conveyor;

import dev.redsim.queue.connection.RedisConnections;
import dev.redsim.queue.worker.WakeListener;
import dev.redsim.queue.worker.WakeSignal;
import dev.redsim.queue.worker.WorkerThreads;
import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A worker runtime for one Conveyor queue: {@code concurrency} threads claim jobs, run the handler and complete
 * the job, or fail it (Conveyor's retries and backoff). Claims do not poll: a thread that finds the queue empty
 * waits for the queue's wake channel (published in the same transaction as every push to the queue), re-checking
 * at most every {@code idleCheck} for jobs that became due or were recovered by another process. One upkeep
 * thread runs the scheduler and lease recovery every {@code idleCheck}; a thread of its own renews the leases of
 * running jobs every third of the lease (the heartbeat), so that an upkeep round waiting out a slot migration (up to
 * 20 s in RedisConnections.transition, against a 30 s lease) cannot hold the renewals back. {@link #stop(Duration)} stops claiming, waits for running handlers up
 * to the grace period, then hands the rest back (Conveyor.release: next in line, no retry consumed) and
 * interrupts them. Thread-safe; every Redis call uses a connection of the pool (size it concurrency + 3).
 *
 * <pre>{@code
 * try (JedisPool pool = new JedisPool("redis-host", 6379);
 *      ConveyorWorker worker = ConveyorWorker.start(pool, "emails", ConveyorWorkerOptions.defaults(),
 *              run -> send(run.job().payload()))) {
 *     ...
 * }
 * }</pre>
 *
 * <p>On a Redis Cluster, start it with a {@link redis.clients.jedis.JedisCluster} and a key prefix carrying a hash tag
 * ({@code withKeys(new ConveyorKeys("{emails}:"))}): claims, completions, upkeep, the clock and the wake
 * subscription all go to the node serving that slot.
 */
public final class ConveyorWorker implements AutoCloseable {
    private enum State { RUNNING, RELEASED, DONE }

    private static final class InFlight {
        Lease lease;
        State state = State.RUNNING;
        final Thread thread;

        InFlight(Lease lease, Thread thread) {
            this.lease = lease;
            this.thread = thread;
        }
    }

    private final RedisConnections connections;
    private final String queue;
    private final ConveyorWorkerOptions options;
    private final InstantSource clock;
    private final ConveyorHandler handler;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final ScheduledExecutorService upkeep;
    private final ScheduledExecutorService heartbeat;
    private final WakeSignal wake = new WakeSignal();
    private final WakeListener listener;

    private ConveyorWorker(RedisConnections connections, String queue, ConveyorWorkerOptions options,
                           ConveyorHandler handler) {
        connections.requireHashTag("Conveyor key prefix", options.keys().prefix());
        this.connections = connections;
        this.queue = queue;
        this.options = options;
        this.clock = options.clock() != null ? options.clock()
                : RedisClock.over(connections, options.keys().slotKey());
        this.handler = handler;
        this.upkeep = WorkerThreads.scheduler("conveyor-upkeep-" + queue);
        this.heartbeat = WorkerThreads.scheduler("conveyor-heartbeat-" + queue);
        long beat = Math.max(1, options.conveyor().lease().toMillis() / 3);
        heartbeat.scheduleWithFixedDelay(this::beat, beat, beat, TimeUnit.MILLISECONDS);
        long check = Math.max(1, options.idleCheck().toMillis());
        upkeep.scheduleWithFixedDelay(this::schedule, 0, check, TimeUnit.MILLISECONDS);
        this.listener = WakeListener.start(connections, options.keys().wake(queue), options.keys().shardedWake(), wake,
                check, "conveyor-wake-" + queue);
    }

    public static ConveyorWorker start(JedisPool pool, String queue, ConveyorWorkerOptions options,
                                       ConveyorHandler handler) {
        return start(RedisConnections.of(pool), queue, options, handler);
    }

    /** Over a JedisCluster (a key prefix with a hash tag) or a JedisPooled. */
    public static ConveyorWorker start(UnifiedJedis client, String queue, ConveyorWorkerOptions options,
                                       ConveyorHandler handler) {
        return start(RedisConnections.of(client), queue, options, handler);
    }

    public static ConveyorWorker start(RedisConnections connections, String queue, ConveyorWorkerOptions options,
                                       ConveyorHandler handler) {
        ConveyorWorker worker = new ConveyorWorker(connections, queue, options, handler);
        for (int i = 0; i < options.concurrency(); i++) {
            Thread t = WorkerThreads.daemon(worker::loop, "conveyor-worker-" + queue + "-" + i);
            worker.threads.add(t);
            t.start();
        }
        return worker;
    }

    public boolean stopping() {
        return !running.get();
    }

    /**
     * Runs one transition on a connection to the server of this Conveyor's keys (on a cluster, the node of their slot),
     * again while a slot migration refuses it (RedisConnections.transition).
     */
    private <T> T onQueue(java.util.function.Function<Conveyor, T> transition) {
        return connections.transition(options.keys().slotKey(), jedis -> transition.apply(conveyor(jedis)));
    }

    private Conveyor conveyor(Jedis jedis) {
        return new Conveyor(jedis, clock, options.conveyor(), options.keys());
    }

    /** Waits for a wake (or the idle check), unless one came since {@code seen}. */
    private void waitForWakeSince(long seen) {
        wake.awaitSince(seen, options.idleCheck().toMillis(), running::get);
    }

    private void loop() {
        while (running.get() && !Thread.currentThread().isInterrupted()) {
            long seen = wake.seen();
            java.util.Optional<Lease> lease;
            try {
                lease = onQueue(c -> c.claim(Deadline.none(), queue));
            } catch (RuntimeException e) {
                waitForWakeSince(seen);
                continue;
            }
            if (lease.isEmpty()) {
                waitForWakeSince(seen);
                continue;
            }
            if (!running.get()) {
                handBack(lease.get());
                return;
            }
            run(lease.get());
        }
    }

    private void run(Lease lease) {
        InFlight f = new InFlight(lease, Thread.currentThread());
        inFlight.put(lease.uuid(), f);
        Throwable failure = null;
        try {
            handler.run(new ConveyorRun(lease.job(), lease.job().retry() + 1, lease.expiresAt()));
        } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
            failure = e;
        }
        Lease latest;
        synchronized (f) {
            inFlight.remove(lease.uuid());
            if (f.state != State.RUNNING) {
                return;
            }
            f.state = State.DONE;
            latest = f.lease;
        }
        Thread.interrupted(); // an interrupt from stop() after the handler returned: the outcome stands
        Throwable outcome = failure;
        try {
            onQueue(c -> {
                if (outcome == null) {
                    c.complete(Deadline.none(), latest);
                } else {
                    c.fail(Deadline.none(), latest, String.valueOf(outcome));
                }
                return null;
            });
        } catch (LeaseLostException e) {
            // recovered meanwhile (the heartbeat could not reach Redis in time): the job runs elsewhere
        } catch (RuntimeException e) {
            // Redis unreachable: the lease expires and recovery hands the job to another worker
        }
    }

    private void handBack(Lease lease) {
        try {
            onQueue(c -> {
                c.release(Deadline.none(), lease);
                return null;
            });
        } catch (RuntimeException e) {
            // lost or unreachable: recovery requeues it after the lease
        }
    }

    /** The heartbeat: renews the lease of every running job. */
    public void beat() {
        if (inFlight.isEmpty()) {
            return;
        }
        try {
            onQueue(conveyor -> {
                renewEach(conveyor);
                return null;
            });
        } catch (RuntimeException e) {
            // unreachable now: the next beat tries again within the lease
        }
    }

    private void renewEach(Conveyor conveyor) {
        for (InFlight f : inFlight.values()) {
            synchronized (f) {
                if (f.state == State.RUNNING) {
                    try {
                        f.lease = conveyor.extend(Deadline.none(), f.lease);
                    } catch (LeaseLostException e) {
                        // recovered already: the handler's outcome will be refused
                    }
                }
            }
        }
    }

    /** Scheduler and recovery: due jobs and expired leases go back to their queues (and wake us). */
    private void schedule() {
        try {
            onQueue(conveyor -> conveyor.runScheduler(Deadline.none()));
            onQueue(conveyor -> conveyor.recoverExpiredLeases(Deadline.none()));
        } catch (RuntimeException e) {
            // unreachable now: the next round tries again
        }
    }

    /** One round of the upkeep now (the scheduler and lease recovery), as the upkeep thread runs it on its schedule. */
    public void upkeepNow() {
        schedule();
    }

    /**
     * Stops claiming, lets running handlers finish for up to {@code grace}, then hands the jobs still running back
     * (no retry consumed) and interrupts their handlers.
     */
    public void stop(Duration grace) {
        running.set(false);
        listener.stop();
        wake.wakeAll();
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
                    handBack(f.lease);
                }
            }
            f.thread.interrupt();
        }
        for (Thread t : threads) {
            WorkerThreads.join(t, 5_000);
        }
        upkeep.shutdownNow();
        heartbeat.shutdownNow();
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(30));
    }
}
