package dev.redsim.queue.jq;

import org.msgpack.value.Value;
import redis.clients.jedis.Jedis;

import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JQ master's state machine on one Redis connection (not thread-safe: one per thread, as a Jedis). Every
 * transition (enqueue, claim and report for n jobs per call, release, cancel, take-result, sweep, the promotion of
 * due retries outside a claim, constraint edits) is one Lua script by default (JqOptions.transitions); with
 * Transitions.OPTIMISTIC each is one MULTI/EXEC (a constraint's definition: one HSET), WATCH-guarded where it
 * depends on what it read. Time comes from the given
 * clock, or from Redis's TIME inside a script when the clock is a RedisClock.
 * See docs/contracts/jq.md.
 */
public final class JobQueue {
    private final Enqueuer enqueuer;
    private final Dispatcher dispatcher;
    private final Reporter reporter;
    private final Results results;
    private final Constraints constraints;
    private final Inspector inspector;
    private final JqContext ctx;

    public JobQueue(Jedis jedis, InstantSource clock) {
        this(jedis, JqKeys.standard(), clock, JqOptions.defaults());
    }

    public JobQueue(Jedis jedis, JqKeys keys, InstantSource clock, JqOptions options) {
        this.ctx = new JqContext(jedis, keys, clock, options);
        this.constraints = new Constraints(ctx);
        this.enqueuer = new Enqueuer(ctx);
        this.dispatcher = new Dispatcher(ctx, constraints);
        this.reporter = new Reporter(ctx, constraints);
        this.results = new Results(ctx);
        this.inspector = new Inspector(ctx, constraints);
    }

    public long enqueue(JobRequest request) {
        return enqueuer.enqueue(request);
    }

    /** Enqueues every request; their ids in the same order. Scripted, the batch is one call. */
    public List<Long> enqueueMany(List<JobRequest> requests) {
        return enqueuer.enqueueMany(requests);
    }

    /** Up to {@code max} jobs, each the spec's choice after the ones before it; empty when none is eligible. */
    public List<Assignment> claimMany(String worker, int max) {
        return dispatcher.claimMany(worker, max, null);
    }

    /**
     * {@link #claimMany(String, int)} holding {@code optimisticClaims} around the claims in the WATCH/MULTI form
     * (Transitions.OPTIMISTIC; scripted claims never take it): a master shares one lock between its threads so that
     * their optimistic claims do not abort each other.
     */
    public List<Assignment> claimMany(String worker, int max, java.util.concurrent.locks.Lock optimisticClaims) {
        return dispatcher.claimMany(worker, max, optimisticClaims);
    }

    /** One status per report, in order. Scripted, the batch is one call. */
    public List<ReportStatus> reportMany(List<AttemptReport> reports) {
        return reporter.reportMany(reports);
    }

    /** The spec's chosen job, dispatched to {@code worker}; empty when no job is eligible now. */
    public Optional<Assignment> claim(String worker) {
        return dispatcher.claim(worker);
    }

    public ReportStatus report(long id, int attempt, Outcome outcome) {
        return reporter.report(id, attempt, outcome);
    }

    /** Un-claims attempt {@code attempt}, which no worker received; it does not count as a try. */
    public ReportStatus release(long id, int attempt) {
        return reporter.release(id, attempt);
    }

    /**
     * Ends a job that has not finished as failed, reason "cancelled" (see Reporter.cancel); empty when there is
     * no such job.
     */
    public Optional<CancelResult> cancel(long id) {
        return reporter.cancel(id);
    }

    /** Times out overdue attempts; the master runs this periodically. */
    public int expireOverdue() {
        return reporter.expireOverdue();
    }

    /** Moves failed jobs whose backoff passed back to the ready set (claim does it too). */
    public int promoteDue() {
        return dispatcher.promoteDue();
    }

    /** The kept result once; empty (the API's null) when read before, expired, not kept or not finished. */
    public Optional<byte[]> takeResult(long id) {
        return results.take(id);
    }

    /** {@link #takeResult} and the job's state (empty when there is no record) in one transaction. */
    public TakenResult takeResultWithState(long id) {
        return results.takeWithState(id);
    }

    /** Periodic upkeep: expired results and old finished records. */
    public void sweep() {
        if (ctx.options.scripted()) {
            results.sweepScripted();
            return;
        }
        results.sweep();
        inspector.trimFinished();
    }

    public void putConstraint(Constraint c) {
        constraints.put(c);
    }

    public boolean removeConstraint(String id) {
        return constraints.remove(id);
    }

    public List<Constraint> constraints() {
        return constraints.list();
    }

    /** constraint id -> {running now, dispatches in the current window}. */
    public Map<String, long[]> constraintUsage() {
        return constraints.usage(constraints.list(), ctx.now());
    }

    public Optional<JobRecord> job(long id) {
        return Optional.ofNullable(inspector.job(id));
    }

    public Map<String, Map<JobState, Long>> counts() {
        return inspector.counts();
    }

    public List<JobRecord> jobs(JobState state, int limit) {
        return inspector.jobs(state, limit);
    }

    public List<Value> recentFailures(int limit) {
        return inspector.recentFailures(limit);
    }

    public Map<JobState, List<Long>> places() {
        return inspector.places();
    }

    public long now() {
        return ctx.now();
    }
}
