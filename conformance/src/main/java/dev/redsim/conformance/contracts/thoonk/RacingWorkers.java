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
 * Worker threads racing for the same jobs while a maintainer runs passes and the clock moves. Each worker holds
 * every claim across a maintenance pass, and now and then stays between its BRPOP and its claim across two
 * passes (a slow worker, as maintenance sees it); it cancels some claims (so jobs come back) and finishes the
 * rest. The clock moves less than the claim timeout in all, so no claim may be taken back: every delivery of a job
 * must be its first or follow a cancel by its holder (deliveries are counted per job, not only finishes). Every job
 * is finished exactly once, with exactly one job.finish event, and the feed ends empty.
 */
final class RacingWorkers {
    private static final long STEP_MILLIS = 3;

    private final RedisTarget target;
    private final ThoonkJobQueueFactory factory;
    private final JobQueueSettings settings;

    RacingWorkers(RedisTarget target, ThoonkJobQueueFactory factory, JobQueueSettings settings) {
        this.target = target;
        this.factory = factory;
        this.settings = settings;
    }

    /** What the workers saw, per job. */
    private static final class Tally {
        final Map<String, Integer> deliveries = new ConcurrentHashMap<>();
        final Map<String, Integer> cancels = new ConcurrentHashMap<>();
        final Map<String, Integer> finished = new ConcurrentHashMap<>();
        final Set<String> held = ConcurrentHashMap.newKeySet();
        final AtomicInteger done = new AtomicInteger();
        final List<String> problems = new ArrayList<>();

        void problem(String text) {
            synchronized (problems) {
                problems.add(text);
            }
        }
    }

    void run(int workers, int jobs) throws Exception {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        try (FeedFixture fixture = new FeedFixture(target);
             FinishEvents events = new FinishEvents(target, fixture.feed);
             ThoonkJobQueue producer = factory.open(target, fixture.feed, clock, settings, CommandHook.NONE);
             MaintenancePacer pacer = new MaintenancePacer(
                 factory.open(target, fixture.feed, clock, settings, CommandHook.NONE), clock, STEP_MILLIS,
                 settings.claimTimeoutMillis() - 1)) {
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < jobs; i++) {
                ids.add(producer.put("job-" + i));
            }
            Tally tally = new Tally();
            ExecutorService pool = Executors.newFixedThreadPool(workers);
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int seed = w;
                running.add(pool.submit(() -> work(fixture.feed, clock, pacer, seed, jobs, tally)));
            }
            pool.shutdown();
            if (!pool.awaitTermination(120, TimeUnit.SECONDS)) {
                pool.shutdownNow();
                throw new AssertionError("workers did not finish " + jobs + " jobs in time; done " + tally.done.get());
            }
            for (Future<?> f : running) {
                f.get();
            }
            synchronized (tally.problems) {
                if (!tally.problems.isEmpty()) {
                    throw new AssertionError(tally.problems.size() + " problem(s), first ones: "
                        + tally.problems.subList(0, Math.min(5, tally.problems.size())));
                }
            }
            if (!tally.finished.keySet().equals(ids) || tally.finished.values().stream().anyMatch(n -> n != 1)) {
                throw new AssertionError("not every job finished exactly once: " + tally.finished);
            }
            for (String id : ids) {
                int expected = tally.cancels.getOrDefault(id, 0) + 1;
                if (tally.deliveries.getOrDefault(id, 0) != expected) {
                    throw new AssertionError("job " + id + " delivered " + tally.deliveries.get(id)
                        + " times for " + (expected - 1) + " cancel(s): a delivery inside a valid claim");
                }
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
            if (pacer.passes() == 0) {
                throw new AssertionError("no maintenance pass ran during the race");
            }
        }
    }

    private void work(String feed, ManualClock clock, MaintenancePacer pacer, int seed, int jobs, Tally tally) {
        // Every third get stops right after its BRPOP until two passes have run: with a rule that counts passes,
        // the second one requeues the popped job and another worker receives it while this one claims it.
        int[] gets = {0};
        boolean[] afterPop = {false};
        CommandHook slowClaim = CommandHook.named((sent, command) -> {
            if (afterPop[0]) {
                afterPop[0] = false;
                if (gets[0] % 3 == 0) {
                    pacer.awaitPasses(2);
                }
            }
            if (command.equalsIgnoreCase("BRPOP")) {
                afterPop[0] = true;
                gets[0]++;
            }
        });
        try (ThoonkJobQueue worker = factory.open(target, feed, clock, settings, slowClaim)) {
            int turn = seed;
            while (tally.done.get() < jobs && !Thread.currentThread().isInterrupted()) {
                afterPop[0] = false;
                JobClaim claim = worker.get(Duration.ofMillis(50));
                if (claim == null) {
                    continue;
                }
                tally.deliveries.merge(claim.id(), 1, Integer::sum);
                if (!tally.held.add(claim.id())) {
                    tally.problem("delivered while another worker holds it: " + claim.id());
                }
                pacer.awaitPasses(1);
                // Let go before the call that releases it: afterwards another worker may already hold it.
                tally.held.remove(claim.id());
                if (turn++ % 4 == 0) {
                    if (worker.cancel(claim)) {
                        tally.cancels.merge(claim.id(), 1, Integer::sum);
                    } else {
                        tally.problem("the holder of a valid claim could not cancel it: " + claim);
                    }
                } else if (worker.finish(claim, "by-" + seed)) {
                    tally.finished.merge(claim.id(), 1, Integer::sum);
                    tally.done.incrementAndGet();
                } else {
                    tally.problem("the holder of a valid claim could not finish it: " + claim);
                }
            }
        }
    }
}
