package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.queue.script.Transitions;
import org.msgpack.value.ValueFactory;
import redis.clients.jedis.Jedis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two masters (each its own connection and thread, no lock shared between them) claim in batches from one queue while
 * constraints are defined: a concurrency of 3 on the jobs named "x", a rate of 5 per minute on those named "y", and
 * jobs named "z" unconstrained. Nobody reports and the clock stands still, so neither limit frees up: however the
 * claims interleave, exactly 3 x and 5 y are dispatched, every z is, and no job twice. With the scripts (the claim
 * evaluates the constraints in Lua, no lock) and with the WATCH/MULTI claim; on both servers.
 */
class JqConstrainedClaimRaceTest {
    private static final int JOBS_PER_NAME = 40;

    @AcrossTargets
    void scriptedClaimsOfTwoMastersNeverExceedTheConstraints(RedisTarget target) throws Exception {
        race(target, Transitions.SCRIPTS);
    }

    @AcrossTargets
    void optimisticClaimsOfTwoMastersNeverExceedTheConstraints(RedisTarget target) throws Exception {
        race(target, Transitions.OPTIMISTIC);
    }

    private static void race(RedisTarget target, Transitions transitions) throws Exception {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        JqOptions options = JqOptions.defaults().withTransitions(transitions);
        try (Jedis setup = new Jedis(target.host(), target.port())) {
            setup.flushAll();
            JobQueue queue = new JobQueue(setup, JqKeys.standard(), clock, options);
            queue.putConstraint(new Constraint("conc", JobMatcher.byName("x"), 0, 0, 3));
            queue.putConstraint(new Constraint("rate", JobMatcher.byName("y"), 5, 60_000, 0));
            List<JobRequest> jobs = new ArrayList<>();
            for (int i = 0; i < JOBS_PER_NAME; i++) {
                for (String name : List.of("x", "y", "z")) {
                    jobs.add(new JobRequest(name, Msgpack.encode(ValueFactory.newInteger(i)), 0, 0, false, 60_000));
                }
            }
            queue.enqueueMany(jobs);
        }
        Map<Long, String> claimed = new ConcurrentHashMap<>();
        List<Throwable> problems = new CopyOnWriteArrayList<>();
        AtomicInteger duplicates = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> masters = new ArrayList<>();
        for (int m = 0; m < 2; m++) {
            String worker = "master-" + m;
            int batch = m + 2; // different batch sizes, so the two interleave differently
            Thread thread = new Thread(() -> {
                try (Jedis jedis = new Jedis(target.host(), target.port())) {
                    JobQueue queue = new JobQueue(jedis, JqKeys.standard(), clock, options);
                    start.await();
                    while (true) {
                        List<Assignment> got = queue.claimMany(worker, batch);
                        if (got.isEmpty()) {
                            return;
                        }
                        for (Assignment a : got) {
                            if (claimed.put(a.id(), a.name()) != null) {
                                duplicates.incrementAndGet();
                            }
                        }
                    }
                } catch (Throwable t) {
                    problems.add(t);
                }
            }, worker);
            thread.start();
            masters.add(thread);
        }
        start.countDown();
        for (Thread thread : masters) {
            thread.join(60_000);
            assertThat(thread.isAlive()).as("%s still claiming after 60 s", thread.getName()).isFalse();
        }
        assertThat(problems).isEmpty();
        assertThat(duplicates.get()).as("jobs claimed twice").isZero();
        Map<String, Long> byName = new java.util.TreeMap<>();
        claimed.values().forEach(name -> byName.merge(name, 1L, Long::sum));
        assertThat(byName).isEqualTo(Map.of("x", 3L, "y", 5L, "z", (long) JOBS_PER_NAME));
        try (Jedis check = new Jedis(target.host(), target.port())) {
            JobQueue queue = new JobQueue(check, JqKeys.standard(), clock, options);
            Map<String, long[]> usage = queue.constraintUsage();
            assertThat(usage.get("conc")[0]).as("running under conc").isEqualTo(3);
            assertThat(usage.get("rate")[1]).as("dispatches in rate's window").isEqualTo(5);
        }
    }
}
