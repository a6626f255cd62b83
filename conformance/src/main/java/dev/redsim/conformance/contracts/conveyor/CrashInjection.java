package dev.redsim.conformance.contracts.conveyor;

import dev.redsim.conformance.contracts.CrashSweep;
import dev.redsim.conformance.contracts.CrashSweep.Outcome;
import dev.redsim.conformance.target.RedisTarget;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * For every scenario and every k: build the scenario, run its operation on a client that dies after its k-th
 * command, then check with a healthy client that every job is in exactly one place (the operation applied fully
 * or not at all), and that after recovery (lease expiry, recovery, scheduler) every job runs to the end with no
 * job delivered while another lease on it is valid. k grows until the operation finishes without being cut.
 */
final class CrashInjection {
    private static final int MAX_COMMANDS = 200;
    private static final int DRAIN_ROUNDS = 20;

    private final RedisTarget target;
    private final ConveyorSubject subject;
    private final CrashSweep sweep = new CrashSweep();

    CrashInjection(RedisTarget target, ConveyorSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    /** @return the problems found (empty when the contract held) */
    List<String> run() throws InterruptedException {
        return sweep.run(CrashScenarios.all(subject.lease().toMillis()), CrashScenarios.Scenario::name, MAX_COMMANDS,
                this::crashAt);
    }

    int crashesInjected() {
        return sweep.crashesInjected();
    }

    private Outcome crashAt(CrashScenarios.Scenario scenario, int k) throws InterruptedException {
        HistoryRunner.flush(target);
        ManualClock clock = new ManualClock(HistoryRunner.START_MILLIS);
        try (ConveyorPort healthy = subject.connect(target.host(), target.port(), clock)) {
            CrashWorld world = new CrashWorld(healthy, clock);
            scenario.setup().accept(world);
            Outcome cut = CrashSweep.cutAfter(target, k, port -> {
                try (ConveyorPort doomed = subject.connect("127.0.0.1", port, clock)) {
                    scenario.operation().accept(world, doomed);
                }
            });
            if (cut.problem() != null) {
                return cut;
            }
            String problem = conserved(world, "right after the crash");
            if (problem == null) {
                problem = recoverAndDrain(world);
            }
            return new Outcome(cut.tripped(), problem);
        }
    }

    /** Every accepted job exactly once; the crashed operation's own job at most once; nothing else. */
    private static String conserved(CrashWorld world, String when) {
        Set<String> known = new java.util.LinkedHashSet<>(world.accepted);
        known.add(CrashScenarios.NEW_JOB);
        Map<String, List<String>> places = world.port.places(ConveyorOp.QUEUES, known);
        Map<String, Integer> seen = new HashMap<>();
        places.values().forEach(l -> l.forEach(u -> seen.merge(u, 1, Integer::sum)));
        for (String uuid : world.accepted) {
            if (seen.getOrDefault(uuid, 0) != 1) {
                return when + ": job " + uuid + " in " + seen.getOrDefault(uuid, 0) + " places " + places;
            }
        }
        if (seen.getOrDefault(CrashScenarios.NEW_JOB, 0) > 1) {
            return when + ": the crashed add stored its job twice " + places;
        }
        if (seen.containsKey(CrashScenarios.NEW_JOB)) {
            world.accepted.add(CrashScenarios.NEW_JOB);
        }
        return seen.size() == world.accepted.size() ? null : when + ": unknown jobs " + places;
    }

    private static String recoverAndDrain(CrashWorld world) {
        Map<String, Integer> deliveries = new HashMap<>();
        for (int round = 0; round < DRAIN_ROUNDS; round++) {
            world.clock.advance(3_600_000);
            world.port.recoverExpired();
            world.port.runScheduler();
            for (var claimed = world.port.claim(CrashWorld.QUEUE); claimed.isPresent();
                 claimed = world.port.claim(CrashWorld.QUEUE)) {
                // Only one claim is open at a time here, so a second delivery of a job would mean a lost fence.
                deliveries.merge(claimed.get().uuid(), 1, Integer::sum);
                if (!world.port.complete(claimed.get())) {
                    return "after recovery: completing a fresh lease was refused";
                }
            }
            String problem = conserved(world, "during recovery");
            if (problem != null) {
                return problem;
            }
            Map<String, List<String>> places = world.port.places(ConveyorOp.QUEUES, world.accepted);
            int finished = places.getOrDefault("done", List.of()).size() + places.getOrDefault("failed", List.of()).size();
            if (finished == world.accepted.size()) {
                return deliveries.values().stream().anyMatch(n -> n > 1) ? "a job was delivered twice: " + deliveries
                        : null;
            }
        }
        return "after recovery, jobs are stranded: " + world.port.places(ConveyorOp.QUEUES, world.accepted);
    }
}
