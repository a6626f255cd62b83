package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;

import java.time.InstantSource;
import java.util.Optional;

/**
 * Conveyor on one Redis connection: Add as the spec defines it, plus what a user needs beyond it (claim with a
 * lease, complete, fail with retries and backoff, the scheduler, lease recovery). One instance per thread, like
 * the Jedis connection it wraps; any number of instances and processes may share the same Redis.
 * Every method takes a {@link Deadline}, Java's stand-in for Go's context.
 */
public final class Conveyor {
    private final Adder adder;
    private final Worker worker;
    private final Scheduler scheduler;
    private final LeaseRecovery recovery;

    public Conveyor(Jedis jedis, InstantSource clock, ConveyorOptions options, ConveyorKeys keys) {
        Optimistic redis = new Optimistic(jedis, options.maxWatchRetries());
        Placement placement = new Placement(keys);
        this.adder = new Adder(redis, keys, placement, clock, options.scripted());
        this.worker = new Worker(redis, keys, new Finisher(jedis, keys, placement, clock), clock, options);
        this.scheduler = new Scheduler(redis, keys, clock, options.scripted());
        this.recovery = new LeaseRecovery(redis, keys, clock, options.scripted());
    }

    public Conveyor(Jedis jedis, InstantSource clock) {
        this(jedis, clock, ConveyorOptions.defaults(), ConveyorKeys.standard());
    }

    /**
     * The spec's Add. {@code deadParent} says the parent already finished running; we also detect that ourselves,
     * so a child added after its parent finished is never buffered where nobody would release it.
     *
     * @return the job as stored (with its generated uuid when it had none)
     */
    public Job add(Deadline deadline, Job job, boolean deadParent) {
        return adder.add(deadline, job, deadParent);
    }

    /**
     * Adds several jobs, in order, each as {@link #add} with {@code deadParent} false; with scripts (the default) in one
     * script (one round trip, all or none when a uuid is taken: DuplicateJobException).
     *
     * @return the jobs as stored, in order
     */
    public java.util.List<Job> addAll(Deadline deadline, java.util.List<Job> jobs) {
        return adder.addAll(deadline, jobs);
    }

    /** Up to {@code n} of the queue's oldest jobs, leased to the caller (one script: one round trip). */
    public java.util.List<Lease> claimMany(Deadline deadline, String queue, int n) {
        return worker.claimMany(deadline, queue, n);
    }

    /**
     * Completes the job and claims up to {@code n} next ones of {@code queue}: one script for a job without a tree
     * or with a parent; a root with children or successors is completed and then claims.
     */
    public java.util.List<Lease> completeAndClaim(Deadline deadline, Lease lease, String queue, int n) {
        return worker.completeAndClaim(deadline, lease, queue, n);
    }

    /** The oldest job of the queue, leased to the caller; empty when the queue is empty (no blocking, no sleep). */
    public Optional<Lease> claim(Deadline deadline, String queue) {
        return worker.claim(deadline, queue);
    }

    /**
     * Completes every lease; the simple ends (no parent, no children, no successors) in one script.
     *
     * @return the leases that were no longer the caller's (nothing was written for them)
     */
    public java.util.List<Lease> completeAll(Deadline deadline, java.util.List<Lease> leases) {
        return worker.completeAll(deadline, leases);
    }

    /** @throws LeaseLostException when the lease is no longer this worker's */
    public void complete(Deadline deadline, Lease lease) {
        worker.complete(deadline, lease);
    }

    /** Schedules a retry after the backoff while retries remain, otherwise records the failure as final. */
    public void fail(Deadline deadline, Lease lease, String reason) {
        worker.fail(deadline, lease, reason);
    }

    /** Hands a leased job back unrun (next in its queue, no retry consumed). @throws LeaseLostException */
    public void release(Deadline deadline, Lease lease) {
        worker.release(deadline, lease);
    }

    public Lease extend(Deadline deadline, Lease lease) {
        return worker.extend(deadline, lease);
    }

    /** Moves due scheduled jobs to their queues, exactly once however many callers run it. */
    public int runScheduler(Deadline deadline) {
        return scheduler.moveDue(deadline);
    }

    /**
     * Requeues jobs whose lease expired, and settles parents whose last child's completer died before it settled
     * them (see docs/contracts/conveyor.md). Returns how many jobs were requeued.
     */
    public int recoverExpiredLeases(Deadline deadline) {
        int requeued = recovery.recoverExpired(deadline);
        worker.settleStranded(deadline);
        return requeued;
    }
}
