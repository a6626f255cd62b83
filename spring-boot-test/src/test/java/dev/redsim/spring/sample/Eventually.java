package dev.redsim.spring.sample;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits, boundedly, for something another thread does (a pub/sub message handled on a listener thread). Not a
 * way to wait for time: the simulator's clock is moved explicitly by the tests.
 */
final class Eventually {
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private Eventually() {
    }

    static void holds(BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still false after " + LIMIT);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
