package dev.redsim.queue.conveyor;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Where a job goes once nothing holds it back (no live parent, no unfinished predecessor): the spec's steps 4-6.
 * Shared by Add, the release of a finished parent's children and the release of onComplete lists, so the three
 * can never disagree.
 */
final class Placement {
    private final ConveyorKeys keys;

    Placement(ConveyorKeys keys) {
        this.keys = keys;
    }

    /**
     * A job with a parent is recorded in the parent's active set before it is scheduled, not only when it is
     * pushed (the spec returns after scheduling): a delayed child must hold its parent back too.
     */
    void place(Plan plan, Job job, byte[] bytes, Instant now) {
        if (job.hasParent()) {
            plan.then(tx -> tx.sadd(keys.active(job.parentUuid()), utf8(job.uuid())));
        }
        if (job.runAt() != null && job.runAt().isAfter(now)) {
            plan.then(tx -> tx.zadd(keys.scheduled(), epochSeconds(job.runAt()), bytes));
        } else {
            plan.then(tx -> tx.lpush(keys.queue(job.queue()), bytes));
            wake(plan, keys, job.queue());
        }
    }

    /** Tells waiting worker runtimes that the queue has a job (in the same transaction as the push). */
    static void wake(Plan plan, ConveyorKeys keys, String queue) {
        if (keys.shardedWake()) {
            plan.then(tx -> tx.sendCommand(redis.clients.jedis.Protocol.Command.SPUBLISH, keys.wake(queue), utf8(queue)));
        } else {
            plan.then(tx -> tx.publish(keys.wake(queue), utf8(queue)));
        }
    }

    /** The spec's score: run-at as a float number of epoch seconds; milliseconds survive as the fraction. */
    static double epochSeconds(Instant t) {
        return t.toEpochMilli() / 1000.0;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
