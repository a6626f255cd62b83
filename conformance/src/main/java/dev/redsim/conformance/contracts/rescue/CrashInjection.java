package dev.redsim.conformance.contracts.rescue;

import dev.redsim.conformance.contracts.CrashSweep;
import dev.redsim.conformance.contracts.CrashSweep.Outcome;
import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * For every scenario and every k: build the scenario with a healthy engine, run its operation on an engine whose
 * connection dies after its k-th command (conveyor's {@code CrashingProxy}, through {@link CrashSweep}), then check that the stored tasks are
 * exactly the state before the operation or exactly the state after it (all or nothing), and that everything can
 * still be worked off: after expiry every task is found, owned once and deleted, leaving only templates.
 */
final class CrashInjection {
    private static final int MAX_COMMANDS = 200;

    /** Builds the world on a healthy engine; returns the claim the operation uses, or null. */
    interface Setup {
        RescueTask build(RescuePort healthy, ManualClock clock);
    }

    interface Operation {
        void run(RescuePort doomed, RescueTask claim);
    }

    /**
     * @param discards the operation is a Search that first discards root-suppressed tasks, each discard its own
     *                 committed transition: "before, minus the suppressed tasks" is then also a whole state
     */
    record Scenario(String name, String worker, Setup setup, Operation operation, boolean discards) {
        Scenario(String name, String worker, Setup setup, Operation operation) {
            this(name, worker, setup, operation, false);
        }
    }

    private final RedisTarget target;
    private final RescueSubject subject;
    private final CrashSweep sweep = new CrashSweep();

    CrashInjection(RedisTarget target, RescueSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    int crashesInjected() {
        return sweep.crashesInjected();
    }

    List<String> run(List<Scenario> scenarios) throws InterruptedException {
        Map<Scenario, List<RescueTask>[]> references = new IdentityHashMap<>(); // once per scenario, not per k
        return sweep.run(scenarios, Scenario::name, MAX_COMMANDS, (scenario, k) -> {
            List<RescueTask>[] reference = references.computeIfAbsent(scenario, this::referenceStates);
            return crashAt(scenario, k, reference[0], reference[1]);
        });
    }

    /** The stored tasks before and after the operation, when nothing crashes. */
    @SuppressWarnings("unchecked")
    private List<RescueTask>[] referenceStates(Scenario scenario) {
        HistoryRunner.flush(target);
        ManualClock clock = new ManualClock(HistoryRunner.START_MILLIS);
        try (RescuePort healthy = subject.connect(target.host(), target.port(), clock, scenario.worker())) {
            RescueTask claim = scenario.setup().build(healthy, clock);
            List<RescueTask> before = healthy.list();
            scenario.operation().run(healthy, claim);
            return new List[] {before, healthy.list()};
        }
    }

    private Outcome crashAt(Scenario scenario, int k, List<RescueTask> before, List<RescueTask> after)
            throws InterruptedException {
        HistoryRunner.flush(target);
        ManualClock clock = new ManualClock(HistoryRunner.START_MILLIS);
        try (RescuePort healthy = subject.connect(target.host(), target.port(), clock, scenario.worker())) {
            RescueTask claim = scenario.setup().build(healthy, clock);
            Outcome cut = CrashSweep.cutAfter(target, k, port -> {
                try (RescuePort doomed = subject.connect("127.0.0.1", port, clock, scenario.worker())) {
                    scenario.operation().run(doomed, claim);
                }
            });
            if (cut.problem() != null) {
                return cut;
            }
            boolean tripped = cut.tripped();
            List<RescueTask> actual = healthy.list();
            if (!actual.equals(before) && !actual.equals(after)
                    && !(scenario.discards() && actual.equals(withoutSuppressed(before)))) {
                return new Outcome(tripped, "a partial transition is stored\n  before " + before + "\n  after  "
                        + after + "\n  actual " + actual);
            }
            return new Outcome(tripped, workOff(healthy, clock));
        }
    }

    /** The tasks whose Root matches another task's Meta removed, as Search's discards leave them. */
    private static List<RescueTask> withoutSuppressed(List<RescueTask> tasks) {
        return tasks.stream().filter(t -> t.isTemplate() || t.root().isEmpty() || tasks.stream().noneMatch(o ->
                o != t && !o.isTemplate() && LabelMatch.subset(t.root(), o.meta()))).toList();
    }

    /** Expire everything, then search and delete until nothing is left but templates (and broadcasts' expiry). */
    private String workOff(RescuePort healthy, ManualClock clock) {
        clock.advance(subject.lease().toMillis() + subject.retention().toMillis());
        healthy.expire();
        Map<String, Integer> deliveries = new HashMap<>();
        for (Optional<RescueTask> t = healthy.search(); t.isPresent(); t = healthy.search()) {
            if (deliveries.merge(t.get().object(), 1, Integer::sum) > 1) {
                return "task " + t.get().object() + " delivered twice while working off";
            }
            if (!t.get().method().equals("all") && !healthy.delete(t.get())) {
                return "deleting a fresh claim was refused: " + t.get();
            }
        }
        List<RescueTask> left = healthy.list().stream().filter(t -> !t.isTemplate()).toList();
        return left.isEmpty() ? null : "stranded after the crash: " + left;
    }
}
