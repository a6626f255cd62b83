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
 * @param shardedWake the wake channel is a shard channel (SPUBLISH / SSUBSCRIBE); see {@link #withShardedWake()}
 */
public record RescueOptions(String queue, String worker, Duration lease, Duration retention, int maxAttempts,
                            Transitions transitions, boolean shardedWake) {
    public RescueOptions(String queue, String worker, Duration lease, Duration retention, int maxAttempts) {
        this(queue, worker, lease, retention, maxAttempts, Transitions.SCRIPTS);
    }

    public RescueOptions(String queue, String worker, Duration lease, Duration retention, int maxAttempts,
                         Transitions transitions) {
        this(queue, worker, lease, retention, maxAttempts, transitions, false);
    }

    public static RescueOptions of(String queue, String worker) {
        return new RescueOptions(queue, worker, Duration.ofSeconds(30), Duration.ofMinutes(10), 10_000);
    }

    public RescueOptions withLease(Duration lease) {
        return new RescueOptions(queue, worker, lease, retention, maxAttempts, transitions, shardedWake);
    }

    public RescueOptions withRetention(Duration retention) {
        return new RescueOptions(queue, worker, lease, retention, maxAttempts, transitions, shardedWake);
    }

    public RescueOptions withTransitions(Transitions value) {
        return new RescueOptions(queue, worker, lease, retention, maxAttempts, value, shardedWake);
    }

    /**
     * The same queue, its wake channel {@code {rescue:<queue>}:wake} a shard channel: every transition that may make
     * work (create, a gate-firing delete, expire, ticker; scripts and WATCH/MULTI form alike) publishes with SPUBLISH,
     * and {@link RescueWorker} listens with SSUBSCRIBE. On a Redis Cluster this keeps each wake on the master of the
     * queue's slot (and its replicas) instead of sending it over the bus to every node; the channel carries the
     * queue's hash tag, so it is in the slot of the scripts that publish on it. Keys and the message are unchanged.
     * Every process of a queue must agree: a runtime subscribed the other way misses the wakes and finds new tasks
     * only at its idle check, and any other SUBSCRIBE listener of the channel hears nothing. Hence not the default
     * (docs/contracts/rescue.md, decision 0019).
     */
    public RescueOptions withShardedWake() {
        return new RescueOptions(queue, worker, lease, retention, maxAttempts, transitions, true);
    }

    /** The command that publishes a wake: PUBLISH, or SPUBLISH for a sharded wake. */
    public String wakeCommand() {
        return shardedWake ? "SPUBLISH" : "PUBLISH";
    }

    boolean scripted() {
        return transitions == Transitions.SCRIPTS;
    }
}
