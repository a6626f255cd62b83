package dev.redsim.queue.jq.master;

/**
 * Wakes long-polling workers and push deliveries when work may have appeared. One new job (an enqueue, a finished
 * attempt freeing a constraint slot) wakes one waiter: waking them all would have every idle worker race for the
 * one job, and all but one would pay a claim that conflicts or finds nothing. Changes that may free many jobs at
 * once (retries becoming due, timeouts, constraint edits) wake every waiter. Waiters also wake on their own after a
 * short period, since another master sharing the Redis may have enqueued.
 */
final class Signal {
    private long generation;

    synchronized long generation() {
        return generation;
    }

    /** One more job may be claimable: wake one waiter. */
    synchronized void fire() {
        generation++;
        notify();
    }

    /** Any number of jobs may be claimable: wake every waiter. */
    synchronized void fireAll() {
        generation++;
        notifyAll();
    }

    /** Waits until a fire after {@code seen}, or at most {@code millis}. */
    synchronized void await(long seen, long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (generation == seen) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return;
            }
            wait(left);
        }
    }
}
