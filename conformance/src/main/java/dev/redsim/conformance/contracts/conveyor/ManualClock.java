package dev.redsim.conformance.contracts.conveyor;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** Time the suite moves by hand (thread-safe): no sleeps, and every run sees the same instants. */
public final class ManualClock implements InstantSource {
    private final AtomicLong millis;

    public ManualClock(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    public long millis() {
        return millis.get();
    }

    public void advance(long byMillis) {
        millis.addAndGet(byMillis);
    }
}
