package dev.redsim.queue.rescue;

import dev.redsim.queue.connection.RedisConnections;
import dev.redsim.queue.worker.WakeListener;
import dev.redsim.queue.worker.WakeSignal;
import dev.redsim.queue.worker.WorkerThreads;
import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A worker runtime for one rescue queue, as one worker name: {@code concurrency} threads Search, run the handler
 * and Delete the task (handing back the handler's copy, so Sync and gates work as the README says). Searches do
 * not poll: an idle thread waits for the queue's wake channel (told after create, gate-firing delete, expire and
 * ticker; subscribed with SSUBSCRIBE when {@link RescueOptions#withShardedWake()}), re-checking every
 * {@code idleCheck}; one upkeep thread runs Expire and Ticker every {@code idleCheck}
 * and renews the ownership of running tasks every third of the lease (the heartbeat). A failing handler leaves
 * its task to expire (the README's retry). {@link #stop(Duration)} stops searching, waits for running handlers
 * up to the grace period, then interrupts the rest; their ownership is left to expire (the README has no
 * hand-back: the lease is the bound). Thread-safe; every Redis call uses a connection of the pool.
 *
 * <pre>{@code
 * try (JedisPool pool = new JedisPool("redis-host", 6379);
 *      RescueWorker worker = RescueWorker.start(pool, RescueOptions.of("reports", "host-7"),
 *              RescueWorkerOptions.defaults().withConcurrency(2), run -> { render(run.task()); return null; })) {
 *     ...
 * }
 * }</pre>
 */
public final class RescueWorker implements AutoCloseable {
    private static final class InFlight {
        Task task;
        boolean running = true;
        final Thread thread;

        InFlight(Task task, Thread thread) {
            this.task = task;
            this.thread = thread;
        }
    }

    private final RedisConnections connections;
    private final byte[] slotKey;
    private final RescueOptions engine;
    private final RescueWorkerOptions options;
    private final InstantSource clock;
    private final RescueHandler handler;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final ScheduledExecutorService upkeep;
    private final WakeSignal wake = new WakeSignal();
    private final WakeListener listener;

    private RescueWorker(RedisConnections connections, RescueOptions engine, RescueWorkerOptions options,
                         RescueHandler handler) {
        this.connections = connections;
        this.slotKey = new RescueKeys(engine.queue()).slotKey();
        this.engine = engine;
        this.options = options;
        this.clock = options.clock() != null ? options.clock() : RedisClock.over(connections, slotKey);
        this.handler = handler;
        this.upkeep = WorkerThreads.scheduler("rescue-upkeep-" + engine.queue());
        long beat = Math.max(1, engine.lease().toMillis() / 3);
        upkeep.scheduleWithFixedDelay(this::beat, beat, beat, TimeUnit.MILLISECONDS);
        long check = Math.max(1, options.idleCheck().toMillis());
        upkeep.scheduleWithFixedDelay(this::expireAndTick, 0, check, TimeUnit.MILLISECONDS);
        // the wake channel carries the queue's hash tag: on a cluster, subscribed on the master whose scripts publish
        // it; SSUBSCRIBE when the queue's wake is sharded, as every process of the queue must agree
        this.listener = WakeListener.start(connections, new RescueKeys(engine.queue()).wake().getBytes(
                java.nio.charset.StandardCharsets.UTF_8), engine.shardedWake(), wake, check,
                "rescue-wake-" + engine.queue());
    }

    public static RescueWorker start(JedisPool pool, RescueOptions engine, RescueWorkerOptions options,
                                     RescueHandler handler) {
        return start(RedisConnections.of(pool), engine, options, handler);
    }

    /** Over a JedisCluster (the queue's keys share the hash tag {rescue:<queue>}) or a JedisPooled. */
    public static RescueWorker start(UnifiedJedis client, RescueOptions engine, RescueWorkerOptions options,
                                     RescueHandler handler) {
        return start(RedisConnections.of(client), engine, options, handler);
    }

    public static RescueWorker start(RedisConnections connections, RescueOptions engine, RescueWorkerOptions options,
                                     RescueHandler handler) {
        RescueWorker worker = new RescueWorker(connections, engine, options, handler);
        for (int i = 0; i < options.concurrency(); i++) {
            Thread t = WorkerThreads.daemon(worker::loop, "rescue-worker-" + engine.queue() + "-" + i);
            worker.threads.add(t);
            t.start();
        }
        return worker;
    }

    public boolean stopping() {
        return !running.get();
    }

    private RescueEngine engine(Jedis jedis) {
        return new RescueEngine(jedis, clock, engine);
    }

    /** Waits for a wake (or the idle check), unless one came since {@code seen}. */
    private void waitForWakeSince(long seen) {
        wake.awaitSince(seen, options.idleCheck().toMillis(), running::get);
    }

    private void loop() {
        while (running.get() && !Thread.currentThread().isInterrupted()) {
            long seen = wake.seen();
            Optional<Task> found;
            try {
                found = connections.transition(slotKey, jedis -> engine(jedis).search());
            } catch (RuntimeException e) {
                waitForWakeSince(seen);
                continue;
            }
            if (found.isEmpty()) {
                waitForWakeSince(seen);
                continue;
            }
            run(found.get());
        }
    }

    private void run(Task task) {
        boolean broadcast = task.method().equals(Labels.ALL);
        String id = task.core().get(Labels.OBJECT);
        InFlight f = new InFlight(task, Thread.currentThread());
        if (!broadcast) {
            inFlight.put(id, f);
        }
        int attempt = broadcast ? 1 : Integer.parseInt(task.core().getOrDefault(Labels.CYCLES, "1"));
        Instant deadline = broadcast ? null : Cron.parseTime(task.core().get(Labels.EXPIRY));
        Task handBack = null;
        boolean ok;
        try {
            handBack = handler.run(new RescueRun(task, attempt, deadline));
            ok = true;
        } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
            ok = false;
        }
        Task latest;
        synchronized (f) {
            inFlight.remove(id);
            f.running = false;
            latest = f.task;
        }
        Thread.interrupted();
        if (!ok || broadcast) {
            return; // a failed run's ownership expires and the task is delivered again
        }
        Task copy = handBack == null ? latest : handBack.with(Task.Section.CORE, latest.core());
        try {
            connections.transition(slotKey, jedis -> {
                engine(jedis).delete(copy);
                return null;
            });
        } catch (NotOwnerException e) {
            // ownership expired meanwhile (no heartbeat reached Redis): the task runs elsewhere
        } catch (RuntimeException e) {
            // Redis unreachable: the ownership expires and the task is delivered again
        }
    }

    /** The heartbeat: renews the ownership of every running task. */
    public void beat() {
        if (inFlight.isEmpty()) {
            return;
        }
        try {
            connections.transition(slotKey, jedis -> {
                RescueEngine e = engine(jedis);
                for (InFlight f : inFlight.values()) {
                    synchronized (f) {
                        if (f.running) {
                            try {
                                f.task = e.extend(f.task);
                            } catch (NotOwnerException lost) {
                                // expired already: the handler's delete will be refused
                            }
                        }
                    }
                }
                return null;
            });
        } catch (RuntimeException e) {
            // unreachable now: the next beat tries again within the lease
        }
    }

    private void expireAndTick() {
        try {
            connections.transition(slotKey, jedis -> engine(jedis).expire());
            connections.transition(slotKey, jedis -> engine(jedis).ticker());
        } catch (RuntimeException e) {
            // unreachable now: the next round tries again
        }
    }

    /** One round of the upkeep now (Expire and Ticker), as the upkeep thread runs it on its schedule. */
    public void upkeepNow() {
        expireAndTick();
    }

    /** Stops searching, waits up to {@code grace} for running handlers, then interrupts the rest. */
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
            f.thread.interrupt();
        }
        for (Thread t : threads) {
            WorkerThreads.join(t, 5_000);
        }
        upkeep.shutdownNow();
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(30));
    }
}
