package dev.redsim.queue.runtime;

import dev.redsim.conformance.contracts.runtime.RuntimeSubject;
import dev.redsim.conformance.contracts.thoonk.ManualClock;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.queue.connection.ClusterClients;
import dev.redsim.queue.conveyor.Conveyor;
import dev.redsim.queue.conveyor.ConveyorKeys;
import dev.redsim.queue.conveyor.ConveyorOptions;
import dev.redsim.queue.conveyor.ConveyorWorker;
import dev.redsim.queue.conveyor.ConveyorWorkerOptions;
import dev.redsim.queue.conveyor.Deadline;
import dev.redsim.queue.rescue.Labels;
import dev.redsim.queue.rescue.RescueEngine;
import dev.redsim.queue.rescue.RescueOptions;
import dev.redsim.queue.rescue.RescueWorker;
import dev.redsim.queue.rescue.RescueWorkerOptions;
import dev.redsim.queue.rescue.Task;
import dev.redsim.queue.thoonk.Job;
import dev.redsim.queue.thoonk.JobWorker;
import dev.redsim.queue.thoonk.JobRunHandler;
import dev.redsim.queue.thoonk.JobWorkerOptions;
import dev.redsim.queue.thoonk.ThoonkKeys;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.UnifiedJedis;

import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Our three runtimes as {@link RuntimeSubject}s: ConveyorWorker, RescueWorker and thoonk's JobWorker, each over
 * fresh key names, a 20 s lease, idle checks and upkeep every 20 ms (so a test waits for events, not for them).
 */
final class RuntimeSubjects {
    /** Shorter than the 30 s skew of the skewed-hosts test, so a runtime reading its host's clock would fail it. */
    static final Duration LEASE = Duration.ofSeconds(20);
    private static final Duration UPKEEP = Duration.ofMillis(20);

    private RuntimeSubjects() {
    }

    /**
     * The runtime's client: a JedisCluster on a cluster target (its connections to the queue's node go to the host and
     * port handed over, which may be a crashing proxy), otherwise a JedisPooled on the host and port.
     */
    private static UnifiedJedis client(ClusterSlotTarget cluster, String host, int port) {
        return cluster != null ? ClusterClients.to(cluster, host, port) : new redis.clients.jedis.JedisPooled(host, port);
    }

    /** What key names start with on a cluster target: its hash tag, so the queue's keys are on its node. */
    private static String tag(ClusterSlotTarget cluster) {
        return cluster != null ? "{" + cluster.hashTag() + "}" : "";
    }

    /** A started runtime and the pool it owns (closed after the stop). */
    private static RuntimeSubject.Running running(Consumer<Duration> stop, BooleanSupplier stopping, Runnable upkeep,
                                                  AutoCloseable pool) {
        return new RuntimeSubject.Running() {
            @Override
            public void upkeepNow() {
                upkeep.run();
            }

            @Override
            public void stop(Duration grace) {
                stop.accept(grace);
                try {
                    pool.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public boolean stopping() {
                return stopping.getAsBoolean();
            }
        };
    }

    static RuntimeSubject conveyor() {
        return conveyor(null);
    }

    /** On a cluster target (or null): a JedisCluster runtime, keys under the target's hash tag, a sharded wake. */
    static RuntimeSubject conveyor(ClusterSlotTarget cluster) {
        ConveyorKeys keys = cluster != null
            ? new ConveyorKeys(tag(cluster) + "rt-" + UUID.randomUUID() + ":").withShardedWake() // as on a cluster
            : new ConveyorKeys("{rt-" + UUID.randomUUID() + "}:");
        ConveyorOptions options = ConveyorOptions.defaults().withLease(LEASE);
        return new RuntimeSubject() {
            @Override
            public List<String> enqueue(String host, int port, ManualClock clock, int n) {
                try (Jedis jedis = new Jedis(host, port)) {
                    Conveyor producer = new Conveyor(jedis, clock, options, keys);
                    List<String> ids = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        ids.add(producer.add(Deadline.none(),
                            dev.redsim.queue.conveyor.Job.of("q", ("p" + i).getBytes()), false).uuid());
                    }
                    return ids;
                }
            }

            @Override
            public Running start(String host, int port, ManualClock clock, int concurrency, Handler handler) {
                return begin(host, port, clock, concurrency, handler);
            }

            @Override
            public Running startOnHost(String host, int port, Clock hostClock, int concurrency, Handler handler) {
                return begin(host, port, null, concurrency, handler); // production: Redis's TIME
            }

            private Running begin(String host, int port, InstantSource clock, int concurrency, Handler handler) {
                if (cluster == null) {
                    return begin(new JedisPool(host, port), clock, concurrency, handler);
                }
                return begin(client(cluster, host, port), clock, concurrency, handler);
            }

            private Running begin(AutoCloseable pool, InstantSource clock, int concurrency, Handler handler) {
                ConveyorWorkerOptions workerOptions = ConveyorWorkerOptions.defaults()
                    .withConcurrency(concurrency).withKeys(keys).withClock(clock).withIdleCheck(UPKEEP)
                    .withConveyor(options);
                ConveyorWorker worker = pool instanceof JedisPool p
                    ? ConveyorWorker.start(p, "q", workerOptions, run -> handler.run(run.uuid(), run.deadline()))
                    : ConveyorWorker.start((UnifiedJedis) pool, "q", workerOptions,
                        run -> handler.run(run.uuid(), run.deadline()));
                return running(worker::stop, worker::stopping, worker::upkeepNow, pool);
            }

            @Override
            public Set<String> unfinished(String host, int port, Collection<String> ids) {
                try (Jedis jedis = new Jedis(host, port)) {
                    Set<String> left = new HashSet<>(ids);
                    jedis.smembers(keys.done()).forEach(b -> left.remove(new String(b)));
                    return left;
                }
            }

            @Override
            public Duration lease() {
                return LEASE;
            }
        };
    }

    static RuntimeSubject thoonk() {
        return thoonk(null);
    }

    /** On a cluster target (or null): a JedisCluster runtime, the feed named under the target's hash tag. */
    static RuntimeSubject thoonk(ClusterSlotTarget cluster) {
        String feed = tag(cluster) + "rt-" + UUID.randomUUID();
        return new RuntimeSubject() {
            @Override
            public List<String> enqueue(String host, int port, ManualClock clock, int n) {
                try (Jedis jedis = new Jedis(host, port)) {
                    Job job = new Job(jedis, feed, clock);
                    List<String> ids = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        ids.add(job.put("item-" + i));
                    }
                    return ids;
                }
            }

            @Override
            public Running start(String host, int port, ManualClock clock, int concurrency, Handler handler) {
                return begin(host, port, clock, concurrency, handler);
            }

            @Override
            public Running startOnHost(String host, int port, Clock hostClock, int concurrency, Handler handler) {
                return begin(host, port, null, concurrency, handler); // production: Redis's TIME
            }

            private Running begin(String host, int port, Clock clock, int concurrency, Handler handler) {
                JobWorkerOptions workerOptions = JobWorkerOptions.defaults().withConcurrency(concurrency)
                    .withClaimTimeout(LEASE).withPollWait(UPKEEP).withClock(clock).withMaintenance(UPKEEP);
                JobRunHandler run = r -> {
                    handler.run(r.id(), r.deadline());
                    return "ok";
                };
                if (cluster == null) {
                    JedisPool pool = new JedisPool(host, port);
                    JobWorker worker = JobWorker.start(pool, feed, workerOptions, run);
                    return running(worker::stop, worker::stopping, worker::upkeepNow, pool);
                }
                UnifiedJedis client = client(cluster, host, port);
                JobWorker worker = JobWorker.start(client, feed, workerOptions, run);
                return running(worker::stop, worker::stopping, worker::upkeepNow, client);
            }

            @Override
            public Set<String> unfinished(String host, int port, Collection<String> ids) {
                try (Jedis jedis = new Jedis(host, port)) {
                    Set<String> left = new HashSet<>(ids);
                    left.retainAll(jedis.hkeys(new ThoonkKeys(feed).items()));
                    return left;
                }
            }

            @Override
            public Duration lease() {
                return LEASE;
            }
        };
    }

    static RuntimeSubject rescue() {
        String queue = "rt-" + UUID.randomUUID();
        AtomicInteger workers = new AtomicInteger();
        return new RuntimeSubject() {
            @Override
            public List<String> enqueue(String host, int port, ManualClock clock, int n) {
                try (Jedis jedis = new Jedis(host, port)) {
                    RescueEngine producer = new RescueEngine(jedis, clock,
                        RescueOptions.of(queue, "producer").withLease(LEASE));
                    List<String> ids = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        ids.add(producer.create(Task.withMeta(Map.of("x.api.io/object", "t" + i))).orElseThrow()
                            .core().get(Labels.OBJECT));
                    }
                    return ids;
                }
            }

            @Override
            public Running start(String host, int port, ManualClock clock, int concurrency, Handler handler) {
                return begin(host, port, clock, concurrency, handler);
            }

            @Override
            public Running startOnHost(String host, int port, Clock hostClock, int concurrency, Handler handler) {
                return begin(host, port, null, concurrency, handler); // production: Redis's TIME
            }

            private Running begin(String host, int port, InstantSource clock, int concurrency, Handler handler) {
                JedisPool pool = new JedisPool(host, port);
                RescueWorker worker = RescueWorker.start(pool,
                    RescueOptions.of(queue, "w" + workers.incrementAndGet()).withLease(LEASE),
                    RescueWorkerOptions.defaults().withConcurrency(concurrency).withClock(clock).withIdleCheck(UPKEEP),
                    run -> {
                        handler.run(run.id(), run.deadline());
                        return null;
                    });
                return running(worker::stop, worker::stopping, worker::upkeepNow, pool);
            }

            @Override
            public Set<String> unfinished(String host, int port, Collection<String> ids) {
                try (Jedis jedis = new Jedis(host, port)) {
                    Set<String> present = new HashSet<>();
                    new RescueEngine(jedis, java.time.Clock.systemUTC(), RescueOptions.of(queue, "inspector")).list()
                        .forEach(t -> present.add(t.core().get(Labels.OBJECT)));
                    Set<String> left = new HashSet<>(ids);
                    left.retainAll(present);
                    return left;
                }
            }

            @Override
            public Duration lease() {
                return LEASE;
            }
        };
    }
}
