package dev.redsim.queue.conveyor;

import dev.redsim.queue.script.Transitions;

import java.time.Duration;

/**
 * Tunables. The backoff before retry n (1-based) is base * 2^(n-1), capped at max: failures spread out instead
 * of hammering a broken dependency.
 *
 * @param lease          how long a claim is exclusive before recovery may hand the job to someone else
 * @param backoffBase    delay before the first retry
 * @param backoffMax     cap on the delay
 * @param maxWatchRetries how often an optimistic transaction is retried under contention before giving up
 * @param transitions    Lua scripts (default) or the WATCH/MULTI forms, for a Redis that forbids scripts
 */
public record ConveyorOptions(Duration lease, Duration backoffBase, Duration backoffMax, int maxWatchRetries,
                              Transitions transitions) {

    public static ConveyorOptions defaults() {
        return new ConveyorOptions(Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofMinutes(5), 1000,
                Transitions.SCRIPTS);
    }

    public ConveyorOptions withTransitions(Transitions value) {
        return new ConveyorOptions(lease, backoffBase, backoffMax, maxWatchRetries, value);
    }

    boolean scripted() {
        return transitions == Transitions.SCRIPTS;
    }

    public Duration backoff(int retry) {
        int doublings = Math.min(Math.max(retry - 1, 0), 30);
        Duration delay = backoffBase.multipliedBy(1L << doublings);
        return delay.compareTo(backoffMax) > 0 ? backoffMax : delay;
    }

    public ConveyorOptions withLease(Duration value) {
        return new ConveyorOptions(value, backoffBase, backoffMax, maxWatchRetries, transitions);
    }

    public ConveyorOptions withBackoff(Duration base, Duration max) {
        return new ConveyorOptions(lease, base, max, maxWatchRetries, transitions);
    }
}
