package dev.redsim.queue.jq.master;

/**
 * Wakes long-polling workers and push deliveries when work may have appeared (an enqueue, a retry becoming due,
 * a timeout). Waiters also wake on their own after a short period, since another master may have enqueued.
 */
final class Signal {
    private long generation;

    synchronized long generation() {
        return generation;
    }

    synchronized void fire() {
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
