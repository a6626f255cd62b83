package dev.redsim.simulator.net;

/**
 * A task a {@link SelectorLoop} runs once after a delay, or at a fixed rate: the handle its scheduler gets back, to
 * cancel it. The loop keeps its timers in a heap ordered by when they are due (ties in order of scheduling).
 */
public final class LoopTimer implements Comparable<LoopTimer> {
    private final Runnable task;
    private final long period; // nanoseconds; 0 runs once
    private long sequence; // set by the loop when the timer enters its heap
    private long due; // System.nanoTime() value; loop thread only once scheduled
    private volatile boolean cancelled;

    LoopTimer(Runnable task, long due, long period) {
        this.task = task;
        this.due = due;
        this.period = period;
    }

    /**
     * Stops the timer: it does not run again (a run already started finishes). Any thread; cancelling twice, or a
     * timer that already ran, is harmless.
     */
    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    void sequence(long sequence) {
        this.sequence = sequence;
    }

    long due() {
        return due;
    }

    Runnable task() {
        return task;
    }

    /**
     * After a run at {@code now}: whether it runs again, and if so, when. A fixed rate keeps its phase (the next run
     * is due a whole number of periods after the first, so there is no drift); runs missed while the loop was busy are
     * skipped, not made up in a burst: a late timer runs once, then keeps to its schedule.
     */
    boolean rescheduleAfterRun(long now) {
        if (period == 0 || cancelled) {
            return false;
        }
        due += period;
        if (due - now <= 0) {
            long missed = (now - due) / period + 1;
            due += missed * period;
        }
        return true;
    }

    @Override
    public int compareTo(LoopTimer other) {
        long byTime = due - other.due;
        if (byTime != 0) {
            return byTime < 0 ? -1 : 1;
        }
        return Long.compare(sequence, other.sequence);
    }
}
