package dev.redsim.conformance.contracts.jq;

import dev.redsim.conformance.property.Gen;

import java.util.List;

/** One step of a generated history. {@code pick} chooses among existing claims or jobs, modulo their number. */
public sealed interface JqOp {
    /** {@code throttled}: the job is named "b", which the history's constraint limits; otherwise "a". */
    record Enqueue(boolean throttled, int priority, int maxRetry, boolean keepResult, long timeoutMillis)
            implements JqOp {
    }

    record Claim() implements JqOp {
    }

    /** Reports success for a claim made earlier (stale when that attempt no longer runs). */
    record Succeed(int pick) implements JqOp {
    }

    record Fail(int pick, boolean shouldRetry) implements JqOp {
    }

    record Advance(long millis) implements JqOp {
    }

    record Expire() implements JqOp {
    }

    record Take(int pick) implements JqOp {
    }

    static Gen<JqOp> gen() {
        Gen<JqOp> enqueue = r -> new Enqueue(r.nextInt(3) == 0,
                Gen.elements(-2, -1, 0, 0, 1, 2, Integer.MIN_VALUE, Integer.MAX_VALUE).next(r),
                r.nextInt(0, 3), r.nextBoolean(), Gen.elements(1_000L, 2_000L, 30_000L).next(r));
        Gen<JqOp> claim = r -> new Claim();
        Gen<JqOp> succeed = r -> new Succeed(r.nextInt(0, 1000));
        Gen<JqOp> fail = r -> new Fail(r.nextInt(0, 1000), r.nextInt(4) > 0);
        Gen<JqOp> advance = r -> new Advance(Gen.elements(1L, 500L, 999L, 1_000L, 2_000L, 4_000L, 10_000L, 31_000L)
                .next(r));
        Gen<JqOp> expire = r -> new Expire();
        Gen<JqOp> take = r -> new Take(r.nextInt(0, 1000));
        return Gen.frequency(List.of(new Gen.Weighted<>(4, enqueue), new Gen.Weighted<>(4, claim),
                new Gen.Weighted<>(2, succeed), new Gen.Weighted<>(2, fail), new Gen.Weighted<>(2, advance),
                new Gen.Weighted<>(1, expire), new Gen.Weighted<>(2, take)));
    }
}
