package dev.redsim.simulator.engine;

import java.time.Clock;
import java.time.Duration;

/**
 * The one clock the simulator reads: TTLs, blocking timeouts, TIME, idle times and active expiry all go
 * through it. It follows a base {@link Clock} (the system clock unless the builder gives another), can be
 * frozen, and can be moved forward, so a test sees a key expire without sleeping.
 */
public final class TimeSource {
    private final Clock base;
    /**
     * Whether the base is the system clock, which System.currentTimeMillis reads as well: a command reads the time
     * several times (expiry, access times, idle time), and Clock.instant makes an Instant each time.
     */
    private final boolean systemClock;
    private volatile long offsetMicros;
    private volatile long frozenAtMicros = Long.MIN_VALUE;

    public TimeSource(Clock base) {
        this.base = base;
        this.systemClock = base.getClass() == Clock.systemUTC().getClass();
    }

    public long millis() {
        if (systemClock && frozenAtMicros == Long.MIN_VALUE) {
            long offset = offsetMicros;
            if (offset % 1000 == 0) {
                // the same reading as micros() / 1000: the offset is whole milliseconds, and epoch time is positive
                return System.currentTimeMillis() + offset / 1000;
            }
        }
        return micros() / 1000;
    }

    public long micros() {
        long frozen = frozenAtMicros;
        if (frozen != Long.MIN_VALUE) {
            return frozen;
        }
        return baseMicros() + offsetMicros;
    }

    private long baseMicros() {
        java.time.Instant now = base.instant();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /** Stops time at its current value until {@link #unfreeze()}. */
    public synchronized void freeze() {
        if (frozenAtMicros == Long.MIN_VALUE) {
            frozenAtMicros = micros();
        }
    }

    /** Lets time run again from where it stands (frozen time is not lost or caught up). */
    public synchronized void unfreeze() {
        long frozen = frozenAtMicros;
        if (frozen != Long.MIN_VALUE) {
            offsetMicros = frozen - baseMicros();
            frozenAtMicros = Long.MIN_VALUE;
        }
    }

    /**
     * Back to the base clock, running: the one move backwards, for a server that starts over between tests
     * (RedisSimulator.resetTime, after its data was flushed).
     */
    public synchronized void reset() {
        offsetMicros = 0;
        frozenAtMicros = Long.MIN_VALUE;
    }

    public boolean frozen() {
        return frozenAtMicros != Long.MIN_VALUE;
    }

    /** Moves time forward (frozen or not). */
    public synchronized void advance(Duration amount) {
        if (amount.isNegative()) {
            throw new IllegalArgumentException("time only moves forward: " + amount);
        }
        long micros = amount.toNanos() / 1000;
        if (frozenAtMicros != Long.MIN_VALUE) {
            frozenAtMicros += micros;
        } else {
            offsetMicros += micros;
        }
    }
}
