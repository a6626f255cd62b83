package dev.redsim.queue.conveyor;

import java.nio.charset.StandardCharsets;

/**
 * Every key Conveyor touches, in one place. The spec's names (scheduled, jobs:<uuid>, jobs:<parent>:children,
 * jobs:<parent>:active, jobs:<pred>:onComplete, and the queue name itself) are kept as they are; the spec's
 * braces are placeholders, not hash tags. Our additions (leases, waiting, done, failed, the per-job lease
 * token) live beside them. The prefix is empty by default; "{conveyor}:" puts every key in one Redis Cluster
 * slot, which multi-key transactions need there (see docs/contracts/conveyor.md).
 */
public final class ConveyorKeys {
    private final String prefix;
    private final boolean shardedWake;

    public ConveyorKeys(String prefix) {
        this(prefix, false);
    }

    private ConveyorKeys(String prefix, boolean shardedWake) {
        this.prefix = prefix;
        this.shardedWake = shardedWake;
    }

    /**
     * The same keys, the wake channel a shard channel: SPUBLISH / SSUBSCRIBE instead of PUBLISH / SUBSCRIBE. On a
     * Redis Cluster this keeps each wake on the master of the queue's slot (and its replicas) instead of sending it to
     * every node; the prefix must carry a hash tag, so the channel is in the slot of the scripts that publish on it.
     * Every process of a Conveyor must agree: a runtime subscribed the other way misses the wakes and finds new jobs
     * only at its idle check (docs/contracts/conveyor.md, decision 0019).
     */
    public ConveyorKeys withShardedWake() {
        return new ConveyorKeys(prefix, true);
    }

    /** Whether the wake channel is a shard channel (see {@link #withShardedWake()}). */
    public boolean shardedWake() {
        return shardedWake;
    }

    /** The command that publishes a wake: PUBLISH, or SPUBLISH for a sharded wake. */
    public String wakeCommand() {
        return shardedWake ? "SPUBLISH" : "PUBLISH";
    }

    public static ConveyorKeys standard() {
        return new ConveyorKeys("");
    }

    /** The queue list: LPUSH on add, taken from the right by claims, so it is FIFO. */
    public byte[] queue(String name) {
        return key(name);
    }

    /** Sorted set of serialized jobs scored by run-at in epoch seconds (fractions allowed). */
    public byte[] scheduled() {
        return key("scheduled");
    }

    /**
     * The job's last written state: ENQUEUED from Add on (which also makes a second Add of the uuid a
     * {@link DuplicateJobException}), RUNNING while claimed, then COMPLETED or FAILED.
     */
    public byte[] job(String uuid) {
        return key("jobs:" + uuid);
    }

    /** Children added while the parent had not finished running: serialized jobs, released when it does. */
    public byte[] children(String parent) {
        return key("jobs:" + parent + ":children");
    }

    /** Uuids of released children that have not finished yet; the parent completes when it is empty. */
    public byte[] active(String parent) {
        return key("jobs:" + parent + ":active");
    }

    /** Serialized jobs waiting for this predecessor to finish. */
    public byte[] onComplete(String predecessor) {
        return key("jobs:" + predecessor + ":onComplete");
    }

    /** The fencing token of the job's current lease; absent when nobody holds the job. */
    public byte[] lease(String uuid) {
        return key("jobs:" + uuid + ":lease");
    }

    /** Sorted set of claimed job uuids scored by lease expiry in epoch milliseconds. */
    public byte[] leases() {
        return key("conveyor:leases");
    }

    /** Uuids of jobs that ran but wait for their released children. */
    public byte[] waiting() {
        return key("conveyor:waiting");
    }

    /**
     * Uuids of finished jobs that just left their parent's active set, whose parent is still to be settled
     * (finalized once its active set is empty) by the job's completer right after, or by recovery when that
     * completer died in between.
     */
    public byte[] settling() {
        return key("conveyor:settling");
    }

    public byte[] done() {
        return key("conveyor:done");
    }

    public byte[] failed() {
        return key("conveyor:failed");
    }

    /**
     * List of job bytes that do not decode (written by a foreign or incompatible writer), moved aside from a queue's
     * tail or from the scheduled set so that they block nothing; newest first. Inspect and remove by hand.
     */
    public byte[] deadLetters() {
        return key("conveyor:dead-letters");
    }

    /**
     * Pub/sub channel told (message = the queue's name) whenever a job is pushed to that queue, so that worker
     * runtimes wait for work instead of polling. Not a key; carries the prefix so that Conveyors sharing a Redis
     * under different prefixes do not wake each other.
     */
    public byte[] wake(String queue) {
        return key("conveyor:wake:" + queue);
    }

    /**
     * A key that routes to the slot of every key here when the prefix carries a hash tag (a cluster client asks for
     * the connection of a Conveyor by it).
     */
    public byte[] slotKey() {
        return scheduled();
    }

    /** What every key name starts with: the scripts build the keys of a popped job (jobs:<uuid>...) from it. */
    public String prefix() {
        return prefix;
    }

    private byte[] key(String name) {
        return (prefix + name).getBytes(StandardCharsets.UTF_8);
    }
}
