package dev.redsim.conformance.contracts.conveyor;

import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Several workers on their own threads and connections race for the same queue; every one of them also runs the
 * scheduler. Checks: no job is held by two workers at once (leases never expire here, so none may), each job is
 * delivered exactly once per attempt (a scheduler moving a job twice would show as an extra delivery), and every
 * job, parents and successors included, ends done.
 */
final class RacingWorkers {
    private static final int ITERATIONS_PER_WORKER = 5000;

    private final RedisTarget target;
    private final ConveyorSubject subject;

    RacingWorkers(RedisTarget target, ConveyorSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    /** @return problems found (empty when the contract held) */
    List<String> run(int workers, int families) throws Exception {
        HistoryRunner.flush(target);
        ManualClock clock = new ManualClock(HistoryRunner.START_MILLIS);
        List<String> uuids = new ArrayList<>();
        Set<String> failOnce = ConcurrentHashMap.newKeySet();
        try (ConveyorPort setup = subject.connect(target.host(), target.port(), clock)) {
            for (int f = 0; f < families; f++) {
                String p = "p" + f;
                add(setup, uuids, new JobSpec(p, CrashWorld.QUEUE, "", "", 0, 0, new byte[0]));
                add(setup, uuids, new JobSpec(p + "-c1", CrashWorld.QUEUE, p, "", 0, 0, new byte[0]));
                add(setup, uuids, new JobSpec(p + "-c2", CrashWorld.QUEUE, p, "", clock.millis() + 500, 1, new byte[0]));
                add(setup, uuids, new JobSpec(p + "-next", CrashWorld.QUEUE, "", p, 0, 0, new byte[0]));
                add(setup, uuids, new JobSpec(p + "-later", CrashWorld.QUEUE, "", "", clock.millis() + 300, 0, new byte[0]));
                add(setup, uuids, new JobSpec(p + "-flaky", CrashWorld.QUEUE, "", "", 0, 1, new byte[0]));
                failOnce.add(p + "-flaky");
                failOnce.add(p + "-c2");
            }
        }
        Map<String, String> holder = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger finished = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            String name = "worker-" + w;
            running.add(pool.submit(() -> {
                try (ConveyorPort port = subject.connect(target.host(), target.port(), clock)) {
                    for (int i = 0; i < ITERATIONS_PER_WORKER && finished.get() < uuids.size(); i++) {
                        port.runScheduler();
                        Optional<Claimed> claimed = port.claim(CrashWorld.QUEUE);
                        if (claimed.isEmpty()) {
                            clock.advance(20);
                            continue;
                        }
                        Claimed c = claimed.get();
                        deliveries.computeIfAbsent(c.uuid(), k -> new AtomicInteger()).incrementAndGet();
                        String other = holder.putIfAbsent(c.uuid(), name);
                        if (other != null) {
                            problems.add(c.uuid() + " delivered to " + name + " while " + other + " holds a valid lease");
                        }
                        boolean firstAttempt = c.retry() == 0;
                        // Released just before the job leaves our hands: until then nobody else may be given it.
                        holder.remove(c.uuid(), name);
                        if (failOnce.contains(c.uuid()) && firstAttempt) {
                            if (!port.fail(c, "planned")) {
                                problems.add("fail of a current lease refused: " + c.uuid());
                            }
                        } else if (port.complete(c)) {
                            finished.incrementAndGet();
                        } else {
                            problems.add("completion of a current lease refused: " + c.uuid());
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        pool.shutdown();
        for (String uuid : uuids) {
            int expected = failOnce.contains(uuid) ? 2 : 1;
            int got = deliveries.getOrDefault(uuid, new AtomicInteger()).get();
            if (got != expected) {
                problems.add(uuid + " delivered " + got + " times, expected " + expected);
            }
        }
        try (ConveyorPort check = subject.connect(target.host(), target.port(), clock)) {
            List<String> done = check.places(ConveyorOp.QUEUES, uuids).getOrDefault("done", List.of());
            if (done.size() != uuids.size()) {
                problems.add("not every job is done: " + check.places(ConveyorOp.QUEUES, uuids));
            }
        }
        return problems;
    }

    private static void add(ConveyorPort port, List<String> uuids, JobSpec job) {
        port.add(job, false);
        uuids.add(job.uuid());
    }
}
