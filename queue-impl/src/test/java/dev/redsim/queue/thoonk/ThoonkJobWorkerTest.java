package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The thoonk worker runtime on both targets: racing runtimes run every job once and never two at once; a runtime
 * that dies mid-job loses nothing (maintenance hands its jobs to the others after the claim timeout, never
 * before); the heartbeat keeps a long run's claim; a graceful stop finishes or hands back what it holds.
 */
class ThoonkJobWorkerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long START = 1_700_000_000_000L;
    /**
     * The graceful stop's grace period: long enough that the handler released at the start of it ends within it
     * on a loaded machine (at 300 ms it did not always), short enough for the stuck one to be interrupted soon.
     */
    private static final Duration GRACE = Duration.ofSeconds(3);

    private static JobWorkerOptions options(ManualClock clock, int concurrency) {
        return JobWorkerOptions.defaults().withConcurrency(concurrency).withClaimTimeout(TIMEOUT)
            .withPollWait(Duration.ofMillis(50)).withClock(clock);
    }

    private static String feed() {
        return "runtime-" + UUID.randomUUID();
    }

    private static List<String> put(RedisTarget target, String feed, ManualClock clock, int n) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Job job = new Job(jedis, feed, clock);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(job.put("job-" + i));
            }
            return ids;
        }
    }

    private static JobState state(RedisTarget target, String feed) {
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            ThoonkKeys k = new ThoonkKeys(feed);
            return new JobState(jedis.hkeys(k.items()), jedis.lrange(k.ids(), 0, -1), jedis.zrange(k.claimed(), 0, -1),
                jedis.get(k.finishes()));
        }
    }

    record JobState(Set<String> items, List<String> available, List<String> claimed, String finishes) {
    }

    @AcrossTargets
    void racingRuntimesRunEveryJobOnceAndNeverTwoAtOnce(RedisTarget target) throws Exception {
        racing(target, dev.redsim.queue.script.Transitions.SCRIPTS);
    }

    /** The same with the WATCH/MULTI forms (JobWorkerOptions.withTransitions), for a Redis that forbids scripts. */
    @AcrossTargets
    void racingRuntimesWithTheWatchMultiFormsRunEveryJobOnce(RedisTarget target) throws Exception {
        racing(target, dev.redsim.queue.script.Transitions.OPTIMISTIC);
    }

    private void racing(RedisTarget target, dev.redsim.queue.script.Transitions transitions) throws Exception {
        String feed = feed();
        ManualClock clock = new ManualClock(START);
        List<String> ids = put(target, feed, clock, 60);
        Set<String> running = ConcurrentHashMap.newKeySet();
        Map<String, Integer> runs = new ConcurrentHashMap<>();
        List<String> problems = new ArrayList<>();
        CountDownLatch allDone = new CountDownLatch(ids.size());
        JobRunHandler handler = run -> {
            if (!running.add(run.id())) {
                synchronized (problems) {
                    problems.add("two runs of " + run.id() + " at once");
                }
            }
            runs.merge(run.id(), 1, Integer::sum);
            clock.advance(1); // time moves, so heartbeats and claims write new scores
            running.remove(run.id());
            allDone.countDown();
            return "ok:" + run.attempt();
        };
        List<JedisPool> pools = new ArrayList<>();
        List<JobWorker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            JedisPool pool = new JedisPool(target.host(), target.port());
            pools.add(pool);
            workers.add(JobWorker.start(pool, feed, options(clock, 2).withTransitions(transitions), handler));
        }
        assertThat(allDone.await(60, TimeUnit.SECONDS)).as("every job ran within 60 s").isTrue();
        workers.forEach(w -> w.stop(Duration.ofSeconds(10)));
        pools.forEach(JedisPool::close);
        assertThat(problems).isEmpty();
        assertThat(runs.keySet()).isEqualTo(new HashSet<>(ids));
        assertThat(runs.values()).allMatch(n -> n == 1);
        JobState end = state(target, feed);
        assertThat(end.items()).isEmpty();
        assertThat(end.finishes()).isEqualTo("60");
    }

    /**
     * Runtime A takes two jobs and hangs in its handlers, then dies (its pool is closed: no finish, no heartbeat).
     * Maintenance takes nothing back before the claim timeout, and both jobs after it; runtime B then runs
     * everything: no job lost, and no job run by B while A's lease was valid.
     */
    @AcrossTargets
    void aRuntimeThatDiesMidJobLosesNothing(RedisTarget target) throws Exception {
        String feed = feed();
        ManualClock clock = new ManualClock(START);
        List<String> ids = put(target, feed, clock, 10);
        CountDownLatch aHolds = new CountDownLatch(2);
        CountDownLatch never = new CountDownLatch(1);
        JedisPool poolA = new JedisPool(target.host(), target.port());
        JobWorker a = JobWorker.start(poolA, feed, options(clock, 2), run -> {
            aHolds.countDown();
            never.await();
            return "a";
        });
        assertThat(aHolds.await(30, TimeUnit.SECONDS)).isTrue();
        poolA.close(); // A dies: its two claims stay in feed.claimed
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            JobMaintenance maintenance = new JobMaintenance(jedis, feed, clock, new MaintenanceSettings(TIMEOUT, 3),
                null);
            clock.advance(TIMEOUT.toMillis());
            assertThat(maintenance.pass().cancelled()).as("taken back at the timeout, not after it").isZero();
            clock.advance(1);
            assertThat(maintenance.pass().cancelled()).isEqualTo(2);
        }
        Map<String, Integer> runsByB = new ConcurrentHashMap<>();
        CountDownLatch bDone = new CountDownLatch(ids.size());
        try (JedisPool poolB = new JedisPool(target.host(), target.port());
             JobWorker b = JobWorker.start(poolB, feed, options(clock, 3), run -> {
                 runsByB.merge(run.id(), 1, Integer::sum);
                 bDone.countDown();
                 return "b";
             })) {
            assertThat(bDone.await(60, TimeUnit.SECONDS)).isTrue();
            assertThat(b).isNotNull();
        }
        never.countDown();
        a.stop(Duration.ofSeconds(5));
        assertThat(runsByB.keySet()).isEqualTo(new HashSet<>(ids));
        assertThat(runsByB.values()).allMatch(n -> n == 1);
        JobState end = state(target, feed);
        assertThat(end.items()).isEmpty();
        assertThat(end.finishes()).isEqualTo("10");
    }

    /** A run longer than the claim timeout keeps its job: the heartbeat renews the claim, maintenance leaves it. */
    @AcrossTargets
    void theHeartbeatKeepsALongRunsClaim(RedisTarget target) throws Exception {
        String feed = feed();
        ManualClock clock = new ManualClock(START);
        put(target, feed, clock, 1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (JedisPool pool = new JedisPool(target.host(), target.port());
             Jedis jedis = new Jedis(target.host(), target.port());
             JobWorker worker = JobWorker.start(pool, feed, options(clock, 1), run -> {
                 started.countDown();
                 release.await();
                 return "done";
             })) {
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            JobMaintenance maintenance = new JobMaintenance(jedis, feed, clock, new MaintenanceSettings(TIMEOUT, 3),
                null);
            for (int i = 0; i < 3; i++) {
                clock.advance(TIMEOUT.toMillis() - 1);
                worker.beat();
                clock.advance(TIMEOUT.toMillis() - 1);
                assertThat(maintenance.pass().cancelled()).as("a renewed claim taken back").isZero();
                worker.beat();
            }
            release.countDown();
        }
        JobState end = state(target, feed);
        assertThat(end.items()).isEmpty();
        assertThat(end.finishes()).isEqualTo("1");
    }

    /**
     * stop(grace): a handler that ends within the grace period finishes its job; one that does not is interrupted
     * and its job handed back (not counted as a failure). Nothing is lost: the feed holds every unfinished job.
     */
    @AcrossTargets
    void aGracefulStopFinishesOrHandsBackWhatItHolds(RedisTarget target) throws Exception {
        String feed = feed();
        ManualClock clock = new ManualClock(START);
        List<String> ids = put(target, feed, clock, 5);
        CountDownLatch bothStarted = new CountDownLatch(2);
        CountDownLatch quickMayEnd = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        try (JedisPool pool = new JedisPool(target.host(), target.port())) {
            JobWorker worker = JobWorker.start(pool, feed, options(clock, 2), run -> {
                bothStarted.countDown();
                if (run.item().equals("job-0")) {
                    quickMayEnd.await();
                    return "quick";
                }
                try {
                    new CountDownLatch(1).await(); // only an interrupt ends this one
                } catch (InterruptedException e) {
                    interrupted.incrementAndGet();
                    throw e;
                }
                return "never";
            });
            assertThat(bothStarted.await(30, TimeUnit.SECONDS)).isTrue();
            Thread stopper = new Thread(() -> worker.stop(GRACE));
            stopper.start();
            // Let the quick handler end only once no job can be taken any more (else it might take another).
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!worker.stopping() && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            quickMayEnd.countDown();
            stopper.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(stopper.isAlive()).isFalse();
        }
        assertThat(interrupted).hasValue(1);
        JobState end = state(target, feed);
        assertThat(end.finishes()).isEqualTo("1");
        assertThat(end.claimed()).as("nothing left claimed").isEmpty();
        assertThat(end.items()).hasSize(4);
        assertThat(new HashSet<>(end.available())).isEqualTo(end.items());
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            Job job = new Job(jedis, feed, clock);
            assertThat(ids.stream().mapToLong(job::failures).sum()).as("a handed-back job counts no failure").isZero();
        }
    }

    /**
     * A worker that died between its BRPOP and its claim left the id unaccounted for; a runtime runs the contract's
     * maintenance itself, so once the claim timeout has passed the job goes back in line and runs. (Before, only a
     * separately run JobMaintenance could requeue it: the runtime alone never ran the job.)
     */
    @AcrossTargets
    void theRuntimeRunsMaintenanceAndRequeuesAnIdLostBetweenPopAndClaim(RedisTarget target) throws Exception {
        String feed = feed();
        ManualClock clock = new ManualClock(START);
        String id = put(target, feed, clock, 1).get(0);
        try (Jedis jedis = new Jedis(target.host(), target.port())) {
            assertThat(jedis.rpop(new ThoonkKeys(feed).ids())).as("popped by a worker that then died").isEqualTo(id);
        }
        CountDownLatch ran = new CountDownLatch(1);
        try (JedisPool pool = new JedisPool(target.host(), target.port());
             JobWorker worker = JobWorker.start(pool, feed, options(clock, 1).withMaintenance(Duration.ofMillis(20)),
                 run -> {
                     ran.countDown();
                     return "ok";
                 })) {
            // Maintenance counts the timeout from the first pass that saw the id missing, and passes come every 20 ms:
            // the clock moves a timeout at a time until a pass has seen it before and one after (an event, awaited
            // up to 300 steps).
            boolean run = false;
            for (int step = 0; step < 300 && !run; step++) {
                clock.advance(TIMEOUT.toMillis() + 1);
                run = ran.await(100, TimeUnit.MILLISECONDS);
            }
            assertThat(run).as("the lost id was requeued and run").isTrue();
            assertThat(worker.stopping()).isFalse();
        }
    }
}
