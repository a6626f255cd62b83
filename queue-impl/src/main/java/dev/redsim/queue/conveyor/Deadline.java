package dev.redsim.queue.conveyor;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Java's stand-in for Go's context.Context: a point in time after which, or a cancellation after which, an
 * operation must give up. Checked before every round trip, so a cancelled call never starts a new transaction.
 */
public final class Deadline {
    private final InstantSource clock;
    private final Instant at;
    private final AtomicBoolean cancelled = new AtomicBoolean();

    private Deadline(InstantSource clock, Instant at) {
        this.clock = clock;
        this.at = at;
    }

    /** Never expires; can still be cancelled. */
    public static Deadline none() {
        return new Deadline(null, null);
    }

    public static Deadline at(InstantSource clock, Instant at) {
        return new Deadline(clock, at);
    }

    public void cancel() {
        cancelled.set(true);
    }

    /** Throws when the caller no longer wants the result. */
    public void check(String operation) {
        if (cancelled.get()) {
            throw new CancelledException(operation + " cancelled");
        }
        if (at != null && clock.instant().isAfter(at)) {
            throw new CancelledException(operation + " deadline exceeded");
        }
    }
}
