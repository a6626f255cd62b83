package dev.redsim.conformance.contracts.jq;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Workers on their own threads and connections race for jobs under constraints. Time moves only between rounds
 * (the manual clock), so every dispatch of a round happens at one known instant.
 */
final class JqRacingWorkers {
    private static final int MAX_ROUNDS = 400;

    private final RedisTarget target;
    private final JqSubject subject;
    final AtomicInteger claims = new AtomicInteger();

    JqRacingWorkers(RedisTarget target, JqSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    /**
     * {@code limited} jobs under "at most limit per window", mixed with unconstrained ones; each round every
     * worker claims and completes until nothing is eligible, then time moves {@code step} ms.
     *
     * @return problems (empty when no window of {@code window} ms held more than {@code limit} dispatches)
     */
    List<String> rate(int workers, int limited, int free, int limit, long window, long step) throws Exception {
        JqHistoryRunner.flush(target);
        ManualClock clock = new ManualClock(JqHistoryRunner.START_MILLIS);
        try (JqPort setup = subject.connect(target.host(), target.port(), clock)) {
            setup.putConstraint(new JqConstraintSpec("rate", "limited", null, limit, window, 0));
            for (int i = 0; i < limited + free; i++) {
                setup.enqueue(JqJob.named(i % 3 == 0 && i / 3 < free ? "free" : "limited"));
            }
        }
        List<Long> starts = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger done = new AtomicInteger();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        int total = limited + free;
        for (int round = 0; round < MAX_ROUNDS && done.get() < total; round++) {
            long at = clock.millis();
            inParallel(workers, w -> {
                Optional<JqClaim> claim;
                while ((claim = w.claim("w")).isPresent()) {
                    claims.incrementAndGet();
                    if (claim.get().name().equals("limited")) {
                        starts.add(at);
                    }
                    if (!w.succeed(claim.get(), "ok")) {
                        problems.add("a fresh claim was stale: " + claim.get());
                    }
                    done.incrementAndGet();
                }
            }, clock);
            clock.advance(step);
        }
        if (done.get() != total) {
            problems.add("finished " + done.get() + " of " + total + " jobs");
        }
        List<Long> sorted = starts.stream().sorted().toList();
        for (int i = 0; i + limit < sorted.size(); i++) {
            if (sorted.get(i + limit) - sorted.get(i) < window) {
                problems.add((limit + 1) + " dispatches within " + window + " ms from " + sorted.get(i));
            }
        }
        return problems;
    }

    /**
     * {@code constrained} jobs (name "narrow", tenant "a") limited to {@code concurrency} running, plus as many
     * of tenant "b" (unconstrained). Every worker keeps claiming while holding what it has (two at most), so the
     * workers together try to exceed the limit all the time.
     *
     * @return problems (empty when never more than {@code concurrency} tenant-a jobs ran at once)
     */
    List<String> concurrency(int workers, int constrained, int concurrency) throws Exception {
        JqHistoryRunner.flush(target);
        ManualClock clock = new ManualClock(JqHistoryRunner.START_MILLIS);
        java.util.Set<Long> tenantA = new java.util.HashSet<>();
        try (JqPort setup = subject.connect(target.host(), target.port(), clock)) {
            setup.putConstraint(new JqConstraintSpec("narrow-a", "narrow", "a", 0, 0, concurrency));
            for (int i = 0; i < constrained; i++) {
                tenantA.add(setup.enqueue(new JqJob("narrow", "a", 0, 0, false, 30_000)));
                setup.enqueue(new JqJob("narrow", "b", 0, 0, false, 30_000));
            }
        }
        AtomicInteger held = new AtomicInteger();
        AtomicInteger maxHeld = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        inParallel(workers, w -> {
            List<JqClaim> mine = new ArrayList<>();
            for (int spin = 0; spin < 200_000 && done.get() < 2 * constrained; spin++) {
                Optional<JqClaim> claim = w.claim("w");
                if (claim.isPresent()) {
                    claims.incrementAndGet();
                    mine.add(claim.get());
                    if (tenantA.contains(claim.get().id())) {
                        maxHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
                    }
                }
                if (mine.size() == 2 || (claim.isEmpty() && !mine.isEmpty())) {
                    for (JqClaim c : mine) {
                        if (tenantA.contains(c.id())) {
                            held.decrementAndGet();
                        }
                        w.succeed(c, "ok");
                        done.incrementAndGet();
                    }
                    mine.clear();
                }
            }
        }, clock);
        if (maxHeld.get() > concurrency) {
            problems.add(maxHeld.get() + " tenant-a jobs ran at once, limit " + concurrency);
        }
        if (done.get() != 2 * constrained) {
            problems.add("finished " + done.get() + " of " + 2 * constrained);
        }
        return problems;
    }

    interface WorkerBody {
        void run(JqPort port) throws Exception;
    }

    private void inParallel(int workers, WorkerBody body, ManualClock clock) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                running.add(pool.submit(() -> {
                    try (JqPort port = subject.connect(target.host(), target.port(), clock)) {
                        body.run(port);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
