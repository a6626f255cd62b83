package dev.redsim.queue.thoonk;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves one millisecond per reading: distinct, ordered publish times without waiting. */
final class TickingClock extends Clock {
    private final long[] now;

    TickingClock(long[] now) {
        this.now = now;
    }

    @Override
    public long millis() {
        return now[0]++;
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
