package dev.redsim.conformance.contracts.rescue;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Several engines on their own threads and connections, racing on one queue with a frozen clock that only a
 * barrier moves. Each check returns the problems it found (empty when the contract held).
 */
final class RacingEngines {
    private static final int MAX_LOOPS = 200_000;

    private final RedisTarget target;
    private final RescueSubject subject;

    RacingEngines(RedisTarget target, RescueSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    /** Every thread runs Ticker at every tick: each template must emit exactly once per tick. */
    List<String> tickers(int threads, int templates, int rounds) throws Exception {
        ManualClock clock = new ManualClock(HistoryRunner.START_MILLIS);
        HistoryRunner.flush(target);
        try (RescuePort setup = subject.connect(target.host(), target.port(), clock, "setup")) {
            for (int i = 0; i < templates; i++) {
                setup.create(RescueTask.meta(Map.of("x.api.io/object", "t" + i))
                        .withCron(Map.of(RescueTask.EVERY, i % 2 == 0 ? "minute" : "hour at **:30")));
            }
        }
        // 30 minutes a round: "minute" templates tick every round, "hour at **:30" every other round.
        CyclicBarrier barrier = new CyclicBarrier(threads, () -> clock.advance(1_800_000));
        AtomicInteger emitted = new AtomicInteger();
        runAll(threads, w -> {
            try (RescuePort port = subject.connect(target.host(), target.port(), clock, "w" + w)) {
                for (int r = 0; r < rounds; r++) {
                    barrier.await();
                    emitted.addAndGet(port.ticker());
                }
            }
        });
        List<String> problems = new ArrayList<>();
        int minuteTemplates = (templates + 1) / 2;
        int expected = minuteTemplates * rounds + (templates - minuteTemplates) * countHalfHourTicks(rounds);
        if (emitted.get() != expected) {
            problems.add("tickers emitted " + emitted.get() + " tasks, expected " + expected);
        }
        try (RescuePort check = subject.connect(target.host(), target.port(), clock, "check")) {
            long stored = check.list().stream().filter(t -> !t.isTemplate()).count();
            if (stored != expected) {
                problems.add(stored + " emitted tasks stored, expected " + expected);
            }
        }
        return problems;
    }

    /** Start 22:13:20; rounds end at 22:43:20, 23:13:20, ...: every other round passes a **:30 tick. */
    private static int countHalfHourTicks(int rounds) {
        int ticks = 0;
        long start = HistoryRunner.START_MILLIS;
        ModelSchedule s = ModelSchedule.of("hour at **:30");
        long next = s.next(start);
        for (int r = 1; r <= rounds; r++) {
            long now = start + r * 1_800_000L;
            if (next <= now) {
                ticks++;
                next = s.next(now);
            }
        }
        return ticks;
    }

    /**
     * Workers race to search and delete trigger tasks of gate templates, cycle after cycle: no task has two owners
     * at once, every task is delivered once, and each gate fires exactly once per cycle.
     */
    List<String> gateWorkers(int threads, int gates, int cycles) throws Exception {
        ManualClock clock = new ManualClock(HistoryRunner.START_MILLIS);
        HistoryRunner.flush(target);
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        Map<String, AtomicInteger> fired = new ConcurrentHashMap<>();
        try (RescuePort setup = subject.connect(target.host(), target.port(), clock, "setup")) {
            for (int g = 0; g < gates; g++) {
                Map<String, String> waiting = Map.of("g" + g + ".api.io/a", "waiting", "g" + g + ".api.io/b", "waiting",
                        "g" + g + ".api.io/c", "waiting");
                setup.create(RescueTask.meta(Map.of("x.api.io/gate", "g" + g)).withGate(waiting));
            }
            for (int c = 0; c < cycles; c++) {
                for (int g = 0; g < gates; g++) {
                    for (String leaf : List.of("a", "b", "c")) {
                        setup.create(RescueTask.meta(Map.of("y.api.io/leaf", leaf)).withGate(
                                Map.of("g" + g + ".api.io/" + leaf, "trigger")));
                    }
                }
                int expectedDeletes = gates * 4;
                AtomicInteger deleted = new AtomicInteger();
                Map<String, String> holder = new ConcurrentHashMap<>();
                Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
                runAll(threads, w -> {
                    try (RescuePort port = subject.connect(target.host(), target.port(), clock, "w" + w)) {
                        for (int i = 0; i < MAX_LOOPS && deleted.get() < expectedDeletes; i++) {
                            Optional<RescueTask> got = port.search();
                            if (got.isEmpty()) {
                                continue;
                            }
                            RescueTask t = got.get();
                            deliveries.computeIfAbsent(t.object(), k -> new AtomicInteger()).incrementAndGet();
                            String other = holder.putIfAbsent(t.object(), port.worker());
                            if (other != null) {
                                problems.add(t.object() + " given to " + port.worker() + " while " + other + " owns it");
                            }
                            String origin = t.core().get(RescueTask.ORIGIN);
                            if (origin != null) {
                                fired.computeIfAbsent(origin, k -> new AtomicInteger()).incrementAndGet();
                            }
                            if (!port.delete(t)) {
                                problems.add("the owner's delete of " + t.object() + " was refused");
                            }
                            // Released only once the task is gone: until then nobody else may be given it.
                            holder.remove(t.object(), port.worker());
                            deleted.incrementAndGet();
                        }
                    }
                });
                deliveries.forEach((id, n) -> {
                    if (n.get() != 1) {
                        problems.add("task " + id + " delivered " + n.get() + " times");
                    }
                });
                if (deleted.get() != expectedDeletes) {
                    problems.add("cycle " + c + ": " + deleted.get() + " deletions, expected " + expectedDeletes);
                }
            }
            fired.forEach((gate, n) -> {
                if (n.get() != cycles) {
                    problems.add("gate template " + gate + " fired " + n.get() + " times in " + cycles + " cycles");
                }
            });
            if (fired.size() != gates) {
                problems.add(fired.size() + " of " + gates + " gates fired");
            }
            for (RescueTask t : setup.list()) {
                if (!t.isTemplate() || t.gate().containsValue("deleted")) {
                    problems.add("left over: " + t);
                }
            }
        }
        return problems;
    }

    /** Workers race for one "all" task: each receives it exactly once. */
    List<String> broadcast(int threads, int tasks) throws Exception {
        ManualClock clock = new ManualClock(HistoryRunner.START_MILLIS);
        HistoryRunner.flush(target);
        try (RescuePort setup = subject.connect(target.host(), target.port(), clock, "setup")) {
            for (int i = 0; i < tasks; i++) {
                setup.create(RescueTask.meta(Map.of("x.api.io/object", "b" + i))
                        .withNode(Map.of(RescueTask.METHOD, "all")));
            }
        }
        Map<String, AtomicInteger> got = new ConcurrentHashMap<>();
        runAll(threads, w -> {
            try (RescuePort port = subject.connect(target.host(), target.port(), clock, "w" + w)) {
                for (Optional<RescueTask> t = port.search(); t.isPresent(); t = port.search()) {
                    got.computeIfAbsent(port.worker() + "/" + t.get().object(), k -> new AtomicInteger())
                            .incrementAndGet();
                }
            }
        });
        List<String> problems = new ArrayList<>();
        if (got.size() != threads * tasks) {
            problems.add(got.size() + " worker/task deliveries, expected " + threads * tasks);
        }
        got.forEach((k, n) -> {
            if (n.get() != 1) {
                problems.add(k + " delivered " + n.get() + " times");
            }
        });
        return problems;
    }

    interface Body {
        void run(int worker) throws Exception;
    }

    private static void runAll(int threads, Body body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < threads; w++) {
                int worker = w;
                running.add(pool.submit(() -> {
                    body.run(worker);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }
}
