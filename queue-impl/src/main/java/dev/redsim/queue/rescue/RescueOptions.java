package dev.redsim.queue.rescue;

import dev.redsim.queue.script.Transitions;

import java.time.Duration;

/**
 * One engine's settings.
 *
 * @param queue     the queue name (all keys of one queue share the hash tag {rescue:queue})
 * @param worker    this engine's worker id, written to task.rescue.io/worker of the tasks it owns
 * @param lease     how long ownership lasts before Expire may revoke it
 * @param retention how long an addressed (all / uni) task waits to be addressed before Expire deletes it
 * @param transitions Lua scripts (the default) or the WATCH/MULTI forms (docs/contracts/rescue.md)
 */
public record RescueOptions(String queue, String worker, Duration lease, Duration retention, int maxAttempts,
                            Transitions transitions) {
    public RescueOptions(String queue, String worker, Duration lease, Duration retention, int maxAttempts) {
        this(queue, worker, lease, retention, maxAttempts, Transitions.SCRIPTS);
    }

    public static RescueOptions of(String queue, String worker) {
        return new RescueOptions(queue, worker, Duration.ofSeconds(30), Duration.ofMinutes(10), 10_000);
    }

    public RescueOptions withLease(Duration lease) {
        return new RescueOptions(queue, worker, lease, retention, maxAttempts, transitions);
    }

    public RescueOptions withRetention(Duration retention) {
        return new RescueOptions(queue, worker, lease, retention, maxAttempts, transitions);
    }

    public RescueOptions withTransitions(Transitions value) {
        return new RescueOptions(queue, worker, lease, retention, maxAttempts, value);
    }

    boolean scripted() {
        return transitions == Transitions.SCRIPTS;
    }
}
