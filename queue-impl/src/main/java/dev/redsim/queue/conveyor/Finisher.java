package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;

import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * What happens when a job stops running for good (completed, or failed with no retries left), planned under
 * WATCH for one MULTI/EXEC: release its buffered children (re-added as with a dead parent); if it has no
 * unfinished children, finalize it: release its onComplete list, record it done or failed, and leave its parent's
 * active set. A failed job releases its dependants like a completed one: the failure is recorded, nothing is
 * stranded.
 *
 * <p>Leaving the parent touches only keys that no sibling's completion watches: SREM from the parent's active set
 * and SADD of the job's own entry to the settling set, unwatched, so siblings finishing at the same moment never
 * conflict (before, each watched the parent's active set and all but one started over). Whether the parent became
 * ready is decided afterwards by {@link #planSettle}: the parent is finalized, in a transaction watching its keys,
 * when it waits and its active set is empty; otherwise a sibling still active will settle it when it leaves. Either
 * way the entry goes. A completer that dies in between leaves its entry, where recovery finds it.
 */
final class Finisher {
    private final Jedis jedis;
    private final ConveyorKeys keys;
    private final Placement placement;
    private final InstantSource clock;

    Finisher(Jedis jedis, ConveyorKeys keys, Placement placement, InstantSource clock) {
        this.jedis = jedis;
        this.keys = keys;
        this.placement = placement;
        this.clock = clock;
    }

    /**
     * Plans the end of a job's run; the caller has watched the job's lease and checked the fencing token.
     *
     * @return the parent to settle once the plan committed, or null
     */
    String planFinish(Job finished, Plan plan) {
        String uuid = finished.uuid();
        jedis.watch(keys.children(uuid), keys.active(uuid), keys.job(uuid));
        List<byte[]> children = jedis.lrange(keys.children(uuid), 0, -1);
        boolean activeChildren = jedis.scard(keys.active(uuid)) > 0;
        plan.then(tx -> tx.zrem(keys.leases(), Placement.utf8(uuid)))
                .then(tx -> tx.del(keys.lease(uuid)))
                .then(tx -> tx.set(keys.job(uuid), JobWire.encode(finished)));
        for (byte[] child : children) {
            placement.place(plan, JobWire.decode(child), child, clock.instant());
        }
        if (children.isEmpty() && !activeChildren) {
            return planFinal(finished, plan);
        }
        plan.then(tx -> tx.del(keys.children(uuid)))
                .then(tx -> tx.sadd(keys.waiting(), Placement.utf8(uuid)));
        return null;
    }

    /**
     * Plans the settling of the parent that {@code child} left. Watches the parent's active set and record and
     * returns null, with nothing planned, when the parent is not ready (a child is still active, or the parent has
     * not finished running, or it was finalized already): the caller then drops the child's entry. When it is
     * ready, plans dropping the entry and finalizing the parent, and returns the parent's own parent to settle next
     * (empty when there is none).
     */
    Optional<String> planSettle(String child, String parent, Plan plan) {
        jedis.watch(keys.active(parent), keys.job(parent));
        // The waiting set is read unwatched: a parent enters or leaves it only with a write to its watched record.
        boolean ready = jedis.scard(keys.active(parent)) == 0 && jedis.sismember(keys.waiting(), Placement.utf8(parent));
        byte[] record = ready ? jedis.get(keys.job(parent)) : null;
        if (record == null) {
            jedis.unwatch();
            return null;
        }
        plan.then(tx -> tx.srem(keys.settling(), Placement.utf8(child)));
        return Optional.ofNullable(planFinal(JobWire.decode(record), plan));
    }

    /** @return the job's parent, to settle once the plan committed, or null */
    private String planFinal(Job job, Plan plan) {
        String uuid = job.uuid();
        byte[] id = Placement.utf8(uuid);
        jedis.watch(keys.onComplete(uuid));
        for (byte[] successor : jedis.lrange(keys.onComplete(uuid), 0, -1)) {
            placement.place(plan, JobWire.decode(successor), successor, clock.instant());
        }
        byte[] record = JobWire.encode(job);
        plan.then(tx -> tx.del(keys.onComplete(uuid)))
                .then(tx -> tx.srem(keys.waiting(), id))
                .then(tx -> tx.sadd(job.status() == JobStatus.COMPLETED ? keys.done() : keys.failed(), id))
                // Rewritten so that Add, which watches jobs:<uuid>, notices that the onComplete list is closed.
                .then(tx -> tx.set(keys.job(uuid), record));
        if (!job.hasParent()) {
            return null;
        }
        String parent = job.parentUuid();
        plan.then(tx -> tx.srem(keys.active(parent), id))
                .then(tx -> tx.sadd(keys.settling(), id));
        return parent;
    }
}
