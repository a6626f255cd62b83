package dev.redsim.conformance.contracts.thoonk;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told: the suite's time, so that no test sleeps. Thread-safe. */
public final class ManualClock extends Clock {
    private final AtomicLong millis;

    public ManualClock(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    public void advance(long byMillis) {
        millis.addAndGet(byMillis);
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
