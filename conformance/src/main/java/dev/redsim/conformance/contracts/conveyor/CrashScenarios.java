package dev.redsim.conformance.contracts.conveyor;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Operations worth killing a client in the middle of, each with the state that makes it interesting. An
 * operation may add one job of its own (uuid "crash-new"), which must end up either absent or in exactly one place.
 */
final class CrashScenarios {
    static final String NEW_JOB = "crash-new";

    record Scenario(String name, Consumer<CrashWorld> setup, BiConsumer<CrashWorld, ConveyorPort> operation) {
    }

    private CrashScenarios() {
    }

    static List<Scenario> all(long leaseMillis) {
        return List.of(
                new Scenario("add", w -> { },
                        (w, p) -> p.add(CrashWorld.job(NEW_JOB), false)),
                new Scenario("add child of a running parent", w -> {
                    w.add(CrashWorld.job("parent"));
                    w.claim();
                }, (w, p) -> p.add(withParent(NEW_JOB, "parent"), false)),
                new Scenario("add behind a predecessor", w -> w.add(CrashWorld.job("first")),
                        (w, p) -> p.add(withPredecessor(NEW_JOB, "first"), false)),
                new Scenario("claim", w -> w.add(CrashWorld.job("a")).add(CrashWorld.job("b")),
                        (w, p) -> p.claim(CrashWorld.QUEUE)),
                new Scenario("complete a parent with buffered children", CrashScenarios::familyRunning,
                        (w, p) -> p.complete(w.leases.get("parent"))),
                new Scenario("complete the last child (releases onComplete, completes the parents)", w -> {
                    familyRunning(w);
                    w.complete("parent");
                    w.complete(w.claim().uuid());
                    w.claim();
                }, (w, p) -> p.complete(w.leases.get(w.lastClaimed))),
                new Scenario("fail with a retry left", w -> {
                    w.add(new JobSpec("flaky", CrashWorld.QUEUE, "", "", 0, 1, new byte[0]));
                    w.claim();
                }, (w, p) -> p.fail(w.leases.get("flaky"), "crash test")),
                new Scenario("fail for good", w -> {
                    w.add(CrashWorld.job("doomed")).add(withPredecessor("after", "doomed"));
                    w.claim();
                }, (w, p) -> p.fail(w.leases.get("doomed"), "crash test")),
                new Scenario("scheduler", w -> {
                    for (int i = 0; i < 3; i++) {
                        w.add(new JobSpec("later-" + i, CrashWorld.QUEUE, "", "", w.clock.millis() + 1000, 0,
                                new byte[0]));
                    }
                    w.clock.advance(2000);
                }, (w, p) -> p.runScheduler()),
                new Scenario("lease recovery", w -> {
                    w.add(CrashWorld.job("x")).add(CrashWorld.job("y"));
                    w.claim();
                    w.claim();
                    w.clock.advance(leaseMillis + 1);
                }, (w, p) -> p.recoverExpired()));
    }

    /** grandparent ran; parent (its child) runs with two buffered children and a successor waiting on it. */
    private static void familyRunning(CrashWorld w) {
        w.add(CrashWorld.job("grandparent"));
        w.claim();
        w.add(withParent("parent", "grandparent"));
        w.complete("grandparent");
        w.claim();
        w.add(withParent("child-1", "parent")).add(withParent("child-2", "parent"))
                .add(withPredecessor("successor", "parent"));
    }

    static JobSpec withParent(String uuid, String parent) {
        return new JobSpec(uuid, CrashWorld.QUEUE, parent, "", 0, 0, uuid.getBytes());
    }

    static JobSpec withPredecessor(String uuid, String predecessor) {
        return new JobSpec(uuid, CrashWorld.QUEUE, "", predecessor, 0, 0, uuid.getBytes());
    }
}
