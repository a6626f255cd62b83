package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.target.RedisTarget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Worker threads racing for the same jobs; each cancels some of its claims (so jobs come back) and finishes
 * the rest. No job may be held by two workers at once, every job is finished exactly once, with exactly one
 * job.finish event, and the feed ends empty.
 */
final class RacingWorkers {
    private final RedisTarget target;
    private final ThoonkJobQueueFactory factory;
    private final JobQueueSettings settings;

    RacingWorkers(RedisTarget target, ThoonkJobQueueFactory factory, JobQueueSettings settings) {
        this.target = target;
        this.factory = factory;
        this.settings = settings;
    }

    void run(int workers, int jobs) throws Exception {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (FeedFixture fixture = new FeedFixture(target);
             FinishEvents events = new FinishEvents(target, fixture.feed);
             ThoonkJobQueue producer = factory.open(target, fixture.feed, clock, settings, CommandHook.NONE)) {
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < jobs; i++) {
                ids.add(producer.put("job-" + i));
            }
            Set<String> held = ConcurrentHashMap.newKeySet();
            Map<String, Integer> finished = new ConcurrentHashMap<>();
            AtomicInteger done = new AtomicInteger();
            List<String> problems = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(workers);
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int seed = w;
                running.add(pool.submit(() -> work(fixture.feed, clock, seed, jobs, held, finished, done, problems)));
            }
            pool.shutdown();
            if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
                pool.shutdownNow();
                throw new AssertionError("workers did not finish " + jobs + " jobs in time; done " + done.get());
            }
            for (Future<?> f : running) {
                f.get();
            }
            synchronized (problems) {
                if (!problems.isEmpty()) {
                    throw new AssertionError(problems.toString());
                }
            }
            if (!finished.keySet().equals(ids) || finished.values().stream().anyMatch(n -> n != 1)) {
                throw new AssertionError("not every job finished exactly once: " + finished);
            }
            JobState end = fixture.state();
            if (!end.items().isEmpty() || end.finishes() != jobs) {
                throw new AssertionError("feed not empty at the end: " + end);
            }
            List<String> seen = events.drain();
            if (seen.size() != jobs || seen.stream().map(e -> e.substring(0, e.indexOf('\u0000')))
                .distinct().count() != jobs) {
                throw new AssertionError("expected one job.finish per job, saw " + seen.size());
            }
        }
    }

    private void work(String feed, ManualClock clock, int seed, int jobs, Set<String> held,
                      Map<String, Integer> finished, AtomicInteger done, List<String> problems) {
        try (ThoonkJobQueue worker = factory.open(target, feed, clock, settings, CommandHook.NONE)) {
            int turn = seed;
            while (done.get() < jobs && !Thread.currentThread().isInterrupted()) {
                JobClaim claim = worker.get(Duration.ofMillis(50));
                if (claim == null) {
                    continue;
                }
                if (!held.add(claim.id())) {
                    synchronized (problems) {
                        problems.add("delivered twice while claimed: " + claim.id());
                    }
                }
                // Let go before the call that releases it: afterwards another worker may already hold it.
                held.remove(claim.id());
                if (turn++ % 4 == 0) {
                    worker.cancel(claim);
                } else if (worker.finish(claim, "by-" + seed)) {
                    finished.merge(claim.id(), 1, Integer::sum);
                    done.incrementAndGet();
                }
            }
        }
    }
}
