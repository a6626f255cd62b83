package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;

import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What happens when a job stops running for good (completed, or failed with no retries left), planned under
 * WATCH for one MULTI/EXEC: release its buffered children (re-added as with a dead parent); if it has no
 * unfinished children, finalize it: release its onComplete list, record it done or failed, and remove it from its
 * parent's active set, finalizing the parent in the same transaction when it was the last child, and so on up.
 * A failed job releases its dependants like a completed one: the failure is recorded, nothing is stranded.
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

    /** Plans the end of a job's run; the caller has watched the job's lease and checked the fencing token. */
    void planFinish(Job finished, Plan plan) {
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
            planFinal(finished, plan, new HashSet<>());
        } else {
            plan.then(tx -> tx.del(keys.children(uuid)))
                    .then(tx -> tx.sadd(keys.waiting(), Placement.utf8(uuid)));
        }
    }

    /** @param finalizing uuids already finalized in this plan: parent links written by hand can form a cycle */
    private void planFinal(Job job, Plan plan, Set<String> finalizing) {
        String uuid = job.uuid();
        if (!finalizing.add(uuid)) {
            return;
        }
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
        if (job.hasParent()) {
            planLeaveParent(uuid, job.parentUuid(), plan, finalizing);
        }
    }

    /**
     * "Last child" is read as SCARD and SISMEMBER, O(1) whatever the number of siblings (reading the whole set
     * made k completions cost O(k^2) bytes). The set stays watched: siblings finishing at the same moment conflict
     * and retry, which is what makes exactly one of them see itself last.
     */
    private void planLeaveParent(String child, String parent, Plan plan, Set<String> finalizing) {
        jedis.watch(keys.active(parent), keys.job(parent));
        long size = jedis.scard(keys.active(parent));
        boolean member = jedis.sismember(keys.active(parent), Placement.utf8(child));
        plan.then(tx -> tx.srem(keys.active(parent), Placement.utf8(child)));
        boolean last = size == 0 || size == 1 && member;
        if (last && jedis.sismember(keys.waiting(), Placement.utf8(parent))) {
            byte[] parentRecord = jedis.get(keys.job(parent));
            if (parentRecord != null) {
                planFinal(JobWire.decode(parentRecord), plan, finalizing);
            }
        }
    }
}
