package dev.redsim.queue.connection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What worker threads report (a job's payload, a message), in arrival order, for a test to wait on: the waiting thread
 * is woken by each arrival, so nothing sleeps and nothing spins.
 */
final class Arrivals {
    private final List<String> seen = new ArrayList<>();

    synchronized void add(String value) {
        seen.add(value);
        notifyAll();
    }

    /** True once {@code value} has arrived; false when {@code bound} passes first. */
    synchronized boolean await(String value, Duration bound) throws InterruptedException {
        long until = System.nanoTime() + bound.toNanos();
        while (!seen.contains(value)) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    /** True once {@code count} values have arrived (repeats included); false when {@code bound} passes first. */
    synchronized boolean awaitCount(int count, Duration bound) throws InterruptedException {
        long until = System.nanoTime() + bound.toNanos();
        while (seen.size() < count) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    synchronized int count() {
        return seen.size();
    }

    synchronized List<String> values() {
        return List.copyOf(seen);
    }
}
