package dev.redsim.queue.conveyor;

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
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Conveyor worker runtime on both targets: racing runtimes woken by adds, a parent completed after its
 * children, retries after the backoff, a runtime dying mid-job (recovered after its lease, not before), and a
 * graceful stop. Keys carry a unique prefix, so runs never see each other's jobs.
 */
class ConveyorWorkerTest {
    private static final long START = 1_700_000_000_000L;
    /**
     * The graceful stop's grace period: long enough that the handler released at the start of it ends within it
     * on a loaded machine (at 300 ms it did not always), short enough for the stuck one to be interrupted soon.
     */
    private static final Duration GRACE = Duration.ofSeconds(3);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private static ConveyorWorkerOptions options(ManualClock clock, ConveyorKeys keys, int concurrency) {
        return ConveyorWorkerOptions.defaults().withConcurrency(concurrency).withKeys(keys).withClock(clock)
            .withIdleCheck(Duration.ofMillis(50)).withConveyor(ConveyorOptions.defaults().withLease(LEASE));
    }

    private static ConveyorKeys keys() {
        return new ConveyorKeys("{rt-" + UUID.randomUUID() + "}:");
    }

    private static Set<String> done(RedisTarget target, ConveyorKeys keys) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Set<String> out = new HashSet<>();
            jedis.smembers(keys.done()).forEach(b -> out.add(new String(b)));
            return out;
        }
    }

    @AcrossTargets
    void racingRuntimesRunEveryJobOnceAndAParentAfterItsChildren(RedisTarget target) throws Exception {
        ManualClock clock = new ManualClock(START);
        ConveyorKeys keys = keys();
        Set<String> running = ConcurrentHashMap.newKeySet();
        Map<String, Integer> runs = new ConcurrentHashMap<>();
        List<String> problems = new CopyOnWriteArrayList<>();
        List<String> order = new CopyOnWriteArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            ids.add("job-" + i);
        }
        ids.add("parent");
        for (int i = 0; i < 5; i++) {
            ids.add("child-" + i);
        }
        CountDownLatch allRan = new CountDownLatch(ids.size());
        ConveyorHandler handler = run -> {
            if (!running.add(run.uuid())) {
                problems.add("two runs of " + run.uuid() + " at once");
            }
            runs.merge(run.uuid(), 1, Integer::sum);
            order.add(run.uuid());
            running.remove(run.uuid());
            allRan.countDown();
        };
        List<JedisPool> pools = new ArrayList<>();
        List<ConveyorWorker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            JedisPool pool = new JedisPool(target.host(), target.port());
            pools.add(pool);
            workers.add(ConveyorWorker.start(pool, "q", options(clock, keys, 2), handler));
        }
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Conveyor producer = new Conveyor(jedis, clock, ConveyorOptions.defaults(), keys);
            producer.add(Deadline.none(), Job.of("q", null).withUuid("parent"), false);
            for (int i = 0; i < 5; i++) {
                producer.add(Deadline.none(), Job.of("q", null).withUuid("child-" + i).withParent("parent"), false);
            }
            for (int i = 0; i < 30; i++) {
                producer.add(Deadline.none(), Job.of("q", ("p" + i).getBytes()).withUuid("job-" + i), false);
            }
        }
        assertThat(allRan.await(60, TimeUnit.SECONDS)).as("every job ran within 60 s").isTrue();
        workers.forEach(w -> w.stop(Duration.ofSeconds(10)));
        pools.forEach(JedisPool::close);
        assertThat(problems).isEmpty();
        assertThat(runs.keySet()).isEqualTo(new HashSet<>(ids));
        assertThat(runs.values()).allMatch(n -> n == 1);
        assertThat(done(target, keys)).as("everything done, the parent included").isEqualTo(new HashSet<>(ids));
        for (int i = 0; i < 5; i++) {
            assertThat(order.indexOf("child-" + i)).as("a child runs after its parent ran").isGreaterThan(
                order.indexOf("parent"));
        }
    }

    @AcrossTargets
    void aFailedRunIsRetriedAfterTheBackoff(RedisTarget target) throws Exception {
        ManualClock clock = new ManualClock(START);
        ConveyorKeys keys = keys();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        CountDownLatch failed = new CountDownLatch(1);
        CountDownLatch succeeded = new CountDownLatch(1);
        try (JedisPool pool = new JedisPool(target.host(), target.port());
             Jedis jedis = new Jedis(target.host(), target.port());
             ConveyorWorker worker = ConveyorWorker.start(pool, "q", options(clock, keys, 1), run -> {
                 attempts.add(run.attempt());
                 if (run.attempt() == 1) {
                     failed.countDown();
                     throw new IllegalStateException("first try fails");
                 }
                 succeeded.countDown();
             })) {
            new Conveyor(jedis, clock, ConveyorOptions.defaults(), keys)
                .add(Deadline.none(), Job.of("q", null).withUuid("flaky").withMaxRetries(2), false);
            assertThat(failed.await(30, TimeUnit.SECONDS)).isTrue();
            // Scheduled for now + 1 s (ConveyorOptions' base): not before.
            assertThat(succeeded.await(200, TimeUnit.MILLISECONDS)).as("retried before its backoff").isFalse();
            clock.advance(1_000);
            assertThat(succeeded.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(worker.stopping()).isFalse();
        }
        assertThat(attempts).containsExactly(1, 2);
        assertThat(done(target, keys)).containsExactly("flaky");
    }

    @AcrossTargets
    void aRuntimeThatDiesMidJobLosesNothing(RedisTarget target) throws Exception {
        ManualClock clock = new ManualClock(START);
        ConveyorKeys keys = keys();
        List<String> ids = new ArrayList<>();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Conveyor producer = new Conveyor(jedis, clock, ConveyorOptions.defaults(), keys);
            for (int i = 0; i < 10; i++) {
                ids.add(producer.add(Deadline.none(), Job.of("q", null).withUuid("job-" + i), false).uuid());
            }
        }
        CountDownLatch aHolds = new CountDownLatch(2);
        CountDownLatch never = new CountDownLatch(1);
        Set<String> heldByA = ConcurrentHashMap.newKeySet();
        JedisPool poolA = new JedisPool(target.host(), target.port());
        ConveyorWorker a = ConveyorWorker.start(poolA, "q", options(clock, keys, 2), run -> {
            heldByA.add(run.uuid());
            aHolds.countDown();
            never.await();
        });
        assertThat(aHolds.await(30, TimeUnit.SECONDS)).isTrue();
        poolA.close(); // A dies with two leases
        Map<String, Integer> runsByB = new ConcurrentHashMap<>();
        CountDownLatch othersDone = new CountDownLatch(8);
        CountDownLatch allDone = new CountDownLatch(10);
        try (JedisPool poolB = new JedisPool(target.host(), target.port());
             ConveyorWorker b = ConveyorWorker.start(poolB, "q", options(clock, keys, 3), run -> {
                 runsByB.merge(run.uuid(), 1, Integer::sum);
                 othersDone.countDown();
                 allDone.countDown();
             })) {
            assertThat(othersDone.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(runsByB.keySet()).as("A's jobs are not run while its leases hold").doesNotContainAnyElementsOf(heldByA);
            // The handlers count down before their complete: wait until the eight are really done, or the clock
            // move below would let recovery take one of B's own leases (a legitimate second delivery).
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (done(target, keys).size() < 8 && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            clock.advance(LEASE.toMillis() + 1);
            assertThat(allDone.await(30, TimeUnit.SECONDS)).as("A's jobs recovered and run").isTrue();
            assertThat(b.stopping()).isFalse();
        }
        never.countDown();
        a.stop(Duration.ofSeconds(5));
        assertThat(runsByB.keySet()).isEqualTo(new HashSet<>(ids));
        assertThat(runsByB.values()).allMatch(n -> n == 1);
        assertThat(done(target, keys)).isEqualTo(new HashSet<>(ids));
    }

    /**
     * Why the graceful stop below once failed under load: a stop that reached the wake listener before its
     * SUBSCRIBE went out put a connection back in the pool in subscribe mode, and the completion of the job whose
     * handler ended during the grace borrowed it and failed. Deterministic here (see StopDuringSubscribe).
     */
    @AcrossTargets
    void aStopWhileTheListenerSubscribesLeavesThePoolClean(RedisTarget target) throws Exception {
        String queue = "q-" + UUID.randomUUID();
        try (GatedPool gated = new GatedPool(target.host(), target.port())) {
            ConveyorWorker worker = ConveyorWorker.start(gated.pool(), queue,
                options(new ManualClock(START), keys(), 1), run -> { });
            StopDuringSubscribe.check(gated, () -> worker.stop(GRACE), "conveyor-wake-" + queue);
        }
    }

    @AcrossTargets
    void aGracefulStopFinishesOrHandsBackWhatItHolds(RedisTarget target) throws Exception {
        ManualClock clock = new ManualClock(START);
        ConveyorKeys keys = keys();
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Conveyor producer = new Conveyor(jedis, clock, ConveyorOptions.defaults(), keys);
            for (int i = 0; i < 4; i++) {
                producer.add(Deadline.none(), Job.of("q", null).withUuid("job-" + i), false);
            }
        }
        CountDownLatch bothStarted = new CountDownLatch(2);
        CountDownLatch quickMayEnd = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        try (JedisPool pool = new JedisPool(target.host(), target.port())) {
            ConveyorWorker worker = ConveyorWorker.start(pool, "q", options(clock, keys, 2), run -> {
                bothStarted.countDown();
                if (run.uuid().equals("job-0")) {
                    quickMayEnd.await();
                    return;
                }
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    interrupted.incrementAndGet();
                    throw e;
                }
            });
            assertThat(bothStarted.await(30, TimeUnit.SECONDS)).isTrue();
            Thread stopper = new Thread(() -> worker.stop(GRACE));
            stopper.start();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!worker.stopping() && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            quickMayEnd.countDown();
            stopper.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(stopper.isAlive()).isFalse();
        }
        assertThat(interrupted).hasValue(1);
        assertThat(done(target, keys)).containsExactly("job-0");
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            assertThat(jedis.llen(keys.queue("q"))).as("the other three back in the queue").isEqualTo(3);
            assertThat(jedis.zcard(keys.leases())).as("no lease left").isZero();
            Job handedBack = JobWire.decode(jedis.lindex(keys.queue("q"), -1));
            assertThat(handedBack.uuid()).as("the handed-back job is next in line").isEqualTo("job-1");
            assertThat(handedBack.retry()).as("no retry consumed").isZero();
        }
    }
}
