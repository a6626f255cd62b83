package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.property.Gen;

import java.util.List;

/**
 * One step of a generated job-queue history. Jobs and claims are named by their index among those made so far
 * (modulo their number), so a history means something whatever the state, and still does after shrinking.
 * Claims include stale ones: finishing an old claim is how fencing is exercised.
 */
public sealed interface JobOp {
    record Put(String item, boolean high) implements JobOp {
    }

    record Get() implements JobOp {
    }

    record Finish(int claim, String result) implements JobOp {
    }

    record Cancel(int claim) implements JobOp {
    }

    record Stall(int claim) implements JobOp {
    }

    record Retry(int job) implements JobOp {
    }

    record Retract(int job) implements JobOp {
    }

    record Maintain() implements JobOp {
    }

    record Advance(long millis) implements JobOp {
    }

    /** Histories weighted towards puts and gets, with clock moves around the claim timeout. */
    static Gen<JobOp> gen(long claimTimeoutMillis) {
        Gen<Integer> ref = Gen.between(0, 1000);
        return Gen.frequency(List.of(
            new Gen.Weighted<>(5, random -> new Put("item-" + random.nextInt(100), random.nextInt(4) == 0)),
            new Gen.Weighted<>(5, Gen.constant(new Get())),
            new Gen.Weighted<>(3, random -> new Finish(ref.next(random),
                random.nextBoolean() ? null : "result-" + random.nextInt(10))),
            new Gen.Weighted<>(2, ref.map(Cancel::new)),
            new Gen.Weighted<>(1, ref.map(Stall::new)),
            new Gen.Weighted<>(1, ref.map(Retry::new)),
            new Gen.Weighted<>(1, ref.map(Retract::new)),
            new Gen.Weighted<>(2, Gen.constant(new Maintain())),
            new Gen.Weighted<>(2, Gen.elements(1L, claimTimeoutMillis / 2, claimTimeoutMillis + 1).map(Advance::new))));
    }
}
