package dev.redsim.conformance.contracts.jq;

import dev.redsim.conformance.contracts.CrashSweep;
import dev.redsim.conformance.contracts.CrashSweep.Outcome;
import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A master that dies after any single command of any operation loses no job: for every operation and every k,
 * the operation runs on a connection cut after its k-th command (Redis executes exactly those k; an open MULTI is
 * discarded), then a healthy connection checks that every job is in exactly one state, and that after the
 * timeouts and a drain every job has ended. k grows until the operation completes uncut.
 */
final class JqCrashInjection {
    private static final int MAX_COMMANDS = 100;

    private final RedisTarget target;
    private final JqSubject subject;
    private final CrashSweep sweep = new CrashSweep();

    JqCrashInjection(RedisTarget target, JqSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    int crashesInjected() {
        return sweep.crashesInjected();
    }

    /** A state built on a healthy connection, and the operation that will be cut. */
    record Scenario(String name, BiConsumer<World, JqPort> operation) {
    }

    static final class World {
        final JqPort port;
        final ManualClock clock;
        final Set<Long> accepted = new LinkedHashSet<>();
        final List<JqClaim> running = new ArrayList<>();
        long keptResult;

        World(JqPort port, ManualClock clock) {
            this.port = port;
            this.clock = clock;
        }
    }

    /** Three queued jobs (one throttled), one due retry, two running (one kept, one retryable), one kept result. */
    private static void setup(World w) {
        w.port.putConstraint(new JqConstraintSpec("c", "b", null, 5, 1_000, 1));
        long retried = w.port.enqueue(new JqJob("a", null, -9, 2, false, 1_000));
        w.port.fail(w.port.claim("w").orElseThrow(), true, "x");
        long kept = w.port.enqueue(new JqJob("a", null, -8, 0, true, 1_000));
        w.port.succeed(w.port.claim("w").orElseThrow(), "v");
        w.running.add(claimNew(w, new JqJob("a", null, -7, 0, true, 1_000)));
        w.running.add(claimNew(w, new JqJob("b", null, -6, 1, false, 1_000)));
        w.accepted.add(retried);
        w.accepted.add(kept);
        w.keptResult = kept;
        w.accepted.add(w.port.enqueue(new JqJob("a", null, 1, 0, false, 1_000)));
        w.accepted.add(w.port.enqueue(new JqJob("b", null, 0, 0, false, 1_000)));
        w.accepted.add(w.port.enqueue(new JqJob("a", null, 0, 1, true, 1_000)));
        w.clock.advance(1_000);
    }

    private static JqClaim claimNew(World w, JqJob job) {
        long id = w.port.enqueue(job);
        w.accepted.add(id);
        JqClaim claim = w.port.claim("w").orElseThrow();
        if (claim.id() != id) {
            throw new IllegalStateException("setup expected to claim " + id + ", got " + claim);
        }
        return claim;
    }

    static List<Scenario> scenarios() {
        return List.of(
                new Scenario("enqueue", (w, p) -> p.enqueue(new JqJob("a", null, 0, 1, true, 1_000))),
                new Scenario("claim", (w, p) -> p.claim("doomed")),
                new Scenario("succeed", (w, p) -> p.succeed(w.running.get(0), "ok")),
                new Scenario("fail", (w, p) -> p.fail(w.running.get(1), true, "boom")),
                new Scenario("expire", (w, p) -> p.expireOverdue()),
                new Scenario("take result", (w, p) -> p.takeResult(w.keptResult)));
    }

    List<String> run() throws InterruptedException {
        return sweep.run(scenarios(), Scenario::name, MAX_COMMANDS, this::crashAt);
    }

    private Outcome crashAt(Scenario scenario, int k) throws InterruptedException {
        JqHistoryRunner.flush(target);
        ManualClock clock = new ManualClock(JqHistoryRunner.START_MILLIS);
        try (JqPort healthy = subject.connect(target.host(), target.port(), clock)) {
            World world = new World(healthy, clock);
            setup(world);
            Outcome cut = CrashSweep.cutAfter(target, k, port -> {
                try (JqPort doomed = subject.connect("127.0.0.1", port, clock)) {
                    scenario.operation().accept(world, doomed);
                }
            });
            if (cut.problem() != null) {
                return cut;
            }
            String problem = conserved(world, "right after the crash");
            if (problem == null) {
                problem = drain(world);
            }
            return new Outcome(cut.tripped(), problem);
        }
    }

    /** Every accepted job in exactly one state; at most one new job (the crashed enqueue's), nothing else. */
    private static String conserved(World world, String when) {
        Map<String, List<Long>> places = world.port.places();
        Map<Long, Integer> seen = new HashMap<>();
        places.values().forEach(ids -> ids.forEach(id -> seen.merge(id, 1, Integer::sum)));
        for (long id : world.accepted) {
            if (seen.getOrDefault(id, 0) != 1) {
                return when + ": job " + id + " in " + seen.getOrDefault(id, 0) + " states " + places;
            }
        }
        Set<Long> extra = new LinkedHashSet<>(seen.keySet());
        extra.removeAll(world.accepted);
        if (extra.size() > 1 || extra.stream().anyMatch(id -> seen.get(id) != 1)) {
            return when + ": unexpected jobs " + extra + " in " + places;
        }
        world.accepted.addAll(extra);
        return null;
    }

    /** Past every timeout and backoff, a healthy worker finishes everything; every job ends exactly once. */
    private static String drain(World world) {
        for (int round = 0; round < 20; round++) {
            world.clock.advance(3_600_000);
            world.port.expireOverdue();
            for (var claim = world.port.claim("healthy"); claim.isPresent(); claim = world.port.claim("healthy")) {
                if (!world.port.succeed(claim.get(), "ok")) {
                    return "during the drain: a fresh claim was stale " + claim.get();
                }
            }
            String problem = conserved(world, "during the drain");
            if (problem != null) {
                return problem;
            }
            Map<String, List<Long>> places = world.port.places();
            if (places.get("succeeded").size() + places.get("failed").size() == world.accepted.size()) {
                return null;
            }
        }
        return "jobs stranded after the drain: " + world.port.places();
    }
}
