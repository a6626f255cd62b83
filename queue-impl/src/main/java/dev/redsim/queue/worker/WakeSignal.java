package dev.redsim.queue.worker;

import java.util.function.BooleanSupplier;

/**
 * What idle worker threads of a runtime wait on: a counter of wakes (a message on the queue's wake channel, a stop),
 * so a thread that read it before looking for work does not sleep through a wake that came meanwhile.
 */
public final class WakeSignal {
    private long wakes; // guarded by this

    /** Wakes every waiting thread. */
    public synchronized void wakeAll() {
        wakes++;
        notifyAll();
    }

    /** The count to hand to {@link #awaitSince} after looking for work. */
    public synchronized long seen() {
        return wakes;
    }

    /**
     * Waits up to {@code millis} for a wake, unless one came since {@code seen} or {@code stillWanted} says no more
     * waiting. An interrupt ends the wait and stays set.
     */
    public synchronized void awaitSince(long seen, long millis, BooleanSupplier stillWanted) {
        if (wakes == seen && stillWanted.getAsBoolean()) {
            await(millis);
        }
    }

    /** Waits up to {@code millis} for a wake (a pause before trying Redis again). */
    public synchronized void await(long millis) {
        try {
            wait(Math.max(1, millis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
