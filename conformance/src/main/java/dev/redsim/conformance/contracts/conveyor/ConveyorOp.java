package dev.redsim.conformance.contracts.conveyor;

import dev.redsim.conformance.property.Gen;

import java.util.List;

/**
 * One step of a generated history. Jobs and claims are referred to by position (taken modulo what exists when the
 * step runs), so any sub-sequence the shrinker keeps is still a valid history.
 */
sealed interface ConveyorOp {
    /** A pick of -1 means "none"; delays are relative to the moment the step runs (-1: no run-at). */
    record Add(int parentPick, int predecessorPick, int queue, long delayMillis, int maxRetries, boolean deadParent)
            implements ConveyorOp {
    }

    record Claim(int queue) implements ConveyorOp {
    }

    /** Completes any claim ever made, current or stale: stale ones must be fenced off. */
    record Complete(int claimPick) implements ConveyorOp {
    }

    record Fail(int claimPick) implements ConveyorOp {
    }

    record Advance(long millis) implements ConveyorOp {
    }

    record Schedule() implements ConveyorOp {
    }

    record Recover() implements ConveyorOp {
    }

    List<String> QUEUES = List.of("conveyor-a", "conveyor-b");

    static Gen<ConveyorOp> gen() {
        Gen<Integer> pick = Gen.frequency(List.of(new Gen.Weighted<>(2, Gen.constant(-1)),
                new Gen.Weighted<>(1, Gen.between(0, 50))));
        Gen<ConveyorOp> add = r -> new Add(pick.next(r), r.nextInt(4) == 0 ? r.nextInt(50) : -1,
                r.nextInt(QUEUES.size()), Gen.elements(-1L, -1L, 0L, 500L, 1500L, 4000L).next(r), r.nextInt(3),
                r.nextInt(8) == 0);
        return Gen.frequency(List.of(
                new Gen.Weighted<>(30, add),
                new Gen.Weighted<>(25, r -> new Claim(r.nextInt(QUEUES.size()))),
                new Gen.Weighted<>(15, r -> new Complete(r.nextInt(1000))),
                new Gen.Weighted<>(8, r -> new Fail(r.nextInt(1000))),
                new Gen.Weighted<>(10, r -> new Advance(Gen.elements(200L, 1000L, 3000L, 12000L).next(r))),
                new Gen.Weighted<>(7, Gen.constant(new Schedule())),
                new Gen.Weighted<>(5, Gen.constant(new Recover()))));
    }
}
