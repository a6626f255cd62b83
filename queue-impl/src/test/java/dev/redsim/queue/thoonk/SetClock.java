package dev.redsim.queue.thoonk;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands still until the test moves it (unlike {@link TickingClock}, reading it changes nothing). */
final class SetClock extends Clock {
    private final long[] now;

    SetClock(long[] now) {
        this.now = now;
    }

    @Override
    public long millis() {
        return now[0];
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(now[0]);
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
