package dev.redsim.queue.rescue;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.worker.GatedPool;
import dev.redsim.queue.worker.StopDuringSubscribe;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rescue worker runtime on both targets: racing runtimes (three worker names) woken by creates run every task
 * once and never two at once; a runtime dying mid-task loses nothing (its tasks are delivered again once their
 * ownership expired, not before).
 */
class RescueWorkerTest {
    private static final long START = 1_700_000_000_000L;
    private static final Duration LEASE = Duration.ofSeconds(30);

    private static RescueWorkerOptions options(ManualClock clock, int concurrency) {
        return RescueWorkerOptions.defaults().withConcurrency(concurrency).withClock(clock)
            .withIdleCheck(Duration.ofMillis(50));
    }

    private static RescueOptions engine(String queue, String worker) {
        return RescueOptions.of(queue, worker).withLease(LEASE);
    }

    private static List<String> create(RedisTarget target, String queue, ManualClock clock, int n) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            RescueEngine producer = new RescueEngine(jedis, clock, engine(queue, "producer"));
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(producer.create(Task.withMeta(Map.of("x.api.io/object", "t" + i))).orElseThrow().core()
                    .get(Labels.OBJECT));
            }
            return ids;
        }
    }

    private static List<Task> left(RedisTarget target, String queue, ManualClock clock) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            return new RescueEngine(jedis, clock, engine(queue, "inspector")).list();
        }
    }

    @AcrossTargets
    void racingRuntimesRunEveryTaskOnceAndNeverTwoAtOnce(RedisTarget target) throws Exception {
        String queue = "rt-" + UUID.randomUUID();
        ManualClock clock = new ManualClock(START);
        Set<String> running = ConcurrentHashMap.newKeySet();
        Map<String, Integer> runs = new ConcurrentHashMap<>();
        List<String> problems = new CopyOnWriteArrayList<>();
        CountDownLatch allRan = new CountDownLatch(40);
        RescueHandler handler = run -> {
            if (!running.add(run.id())) {
                problems.add("two runs of " + run.id() + " at once");
            }
            runs.merge(run.id(), 1, Integer::sum);
            running.remove(run.id());
            allRan.countDown();
            return null;
        };
        List<JedisPool> pools = new ArrayList<>();
        List<RescueWorker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            JedisPool pool = new JedisPool(target.host(), target.port());
            pools.add(pool);
            workers.add(RescueWorker.start(pool, engine(queue, "w" + i), options(clock, 2), handler));
        }
        List<String> ids = create(target, queue, clock, 40);
        assertThat(allRan.await(60, TimeUnit.SECONDS)).as("every task ran within 60 s").isTrue();
        workers.forEach(w -> w.stop(Duration.ofSeconds(10)));
        pools.forEach(JedisPool::close);
        assertThat(problems).isEmpty();
        assertThat(runs.keySet()).isEqualTo(new HashSet<>(ids));
        assertThat(runs.values()).allMatch(n -> n == 1);
        assertThat(left(target, queue, clock)).as("every task deleted by its owner").isEmpty();
    }

    @AcrossTargets
    void aRuntimeThatDiesMidTaskLosesNothing(RedisTarget target) throws Exception {
        String queue = "rt-" + UUID.randomUUID();
        ManualClock clock = new ManualClock(START);
        List<String> ids = create(target, queue, clock, 10);
        CountDownLatch aHolds = new CountDownLatch(2);
        CountDownLatch never = new CountDownLatch(1);
        Set<String> heldByA = ConcurrentHashMap.newKeySet();
        JedisPool poolA = new JedisPool(target.host(), target.port());
        RescueWorker a = RescueWorker.start(poolA, engine(queue, "a"), options(clock, 2), run -> {
            heldByA.add(run.id());
            aHolds.countDown();
            never.await();
            return null;
        });
        assertThat(aHolds.await(30, TimeUnit.SECONDS)).isTrue();
        poolA.close(); // A dies owning two tasks
        Map<String, Integer> runsByB = new ConcurrentHashMap<>();
        Map<String, Integer> attempts = new ConcurrentHashMap<>();
        CountDownLatch othersDone = new CountDownLatch(8);
        CountDownLatch allDone = new CountDownLatch(10);
        try (JedisPool poolB = new JedisPool(target.host(), target.port());
             RescueWorker b = RescueWorker.start(poolB, engine(queue, "b"), options(clock, 3), run -> {
                 runsByB.merge(run.id(), 1, Integer::sum);
                 attempts.put(run.id(), run.attempt());
                 othersDone.countDown();
                 allDone.countDown();
                 return null;
             })) {
            assertThat(othersDone.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(runsByB.keySet()).as("A's tasks are not run while it owns them")
                .doesNotContainAnyElementsOf(heldByA);
            // The handlers count down before their Delete: wait until the eight are really deleted, or the clock
            // move below would expire one of B's own ownerships (a legitimate second delivery).
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (left(target, queue, clock).size() > 2 && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            clock.advance(LEASE.toMillis());
            assertThat(allDone.await(30, TimeUnit.SECONDS)).as("A's tasks delivered again and run").isTrue();
            assertThat(b.stopping()).isFalse();
        }
        never.countDown();
        a.stop(Duration.ofSeconds(5));
        assertThat(runsByB.keySet()).isEqualTo(new HashSet<>(ids));
        assertThat(runsByB.values()).allMatch(n -> n == 1);
        heldByA.forEach(id -> assertThat(attempts.get(id)).as("second delivery of " + id).isEqualTo(2));
        assertThat(left(target, queue, clock)).isEmpty();
    }

    /** A stop that reaches the wake listener before its SUBSCRIBE went out leaves the pool clean. */
    @AcrossTargets
    void aStopWhileTheListenerSubscribesLeavesThePoolClean(RedisTarget target) throws Exception {
        String queue = "q-" + UUID.randomUUID();
        try (GatedPool gated = new GatedPool(target.host(), target.port())) {
            RescueWorker worker = RescueWorker.start(gated.pool(), engine(queue, "w"),
                options(new ManualClock(START), 1), run -> null);
            StopDuringSubscribe.check(gated, () -> worker.stop(Duration.ofSeconds(3)), "rescue-wake-" + queue);
        }
    }
}
