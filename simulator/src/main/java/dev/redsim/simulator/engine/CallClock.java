package dev.redsim.simulator.engine;

/**
 * The time a command call sees for its bookkeeping: read once when the outermost call starts and kept until it
 * ends (Redis's call() refreshes its cached time for the first call of a nesting and leaves it for the rest), so
 * key access times, expiry checks and the client's last interaction cost no clock read of their own. Outside a
 * call (timers, the active sweep, a served blocked client) it reads the {@link TimeSource} as before. A command's
 * TTL arithmetic and TIME still read the clock (CommandContext.now), and durations still take two readings.
 *
 * <p>Engine thread, or the script thread while the engine thread waits for it or holds it still. When a long script
 * leaves the engine thread (busy mode), its EVAL's call releases the reading while the script holds still at a
 * checkpoint (ScriptRunner), so the script's next call takes a reading of its own; the one who set the reading always
 * releases it, so a reading is never kept past its call. Clock control is unaffected between calls: the test thread
 * moves the TimeSource, and the next call reads it.
 */
public final class CallClock {
    private final TimeSource time;
    private boolean held;
    private long heldMillis;

    CallClock(TimeSource time) {
        this.time = time;
    }

    /** Reads the clock for a call, unless a call around it did: true when this call owns the reading. */
    public boolean hold() {
        if (held) {
            return false;
        }
        heldMillis = time.millis();
        held = true;
        return true;
    }

    /** The owning call ended: the next reading is a fresh one. */
    public void release() {
        held = false;
    }

    /** The call's reading while a call runs, else the clock now. */
    public long millis() {
        return held ? heldMillis : time.millis();
    }
}
