package dev.redsim.queue.connection;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition read from the servers (a subscriber count, a set member): each probe is a round trip, which
 * is what gives the other connections' commands time to arrive, so nothing sleeps (as BlockedClientsProbe).
 */
final class ServerPoll {
    private ServerPoll() {
    }

    /** True once the condition holds; false when {@code bound} passes first. */
    static boolean until(BooleanSupplier serverCondition, Duration bound) {
        long until = System.nanoTime() + bound.toNanos();
        while (!serverCondition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                return false;
            }
        }
        return true;
    }
}
