package dev.redsim.queue.jq;

import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records an attempt's outcome, fenced by the attempt number under WATCH: only the attempt still running may
 * finish the job. A failure is retried (after the backoff) while attempts <= max_retry and the worker did not say
 * should_retry=false; otherwise the job has failed. Timeouts are failures the master reports itself.
 */
final class Reporter {
    private static final int FAILURES_KEPT = 100;

    private final JqContext ctx;
    private final Constraints constraints;

    Reporter(JqContext ctx, Constraints constraints) {
        this.ctx = ctx;
        this.constraints = constraints;
    }

    ReportStatus report(long id, int attempt, Outcome outcome) {
        return reportMany(List.of(new AttemptReport(id, attempt, outcome))).get(0);
    }

    /** One status per report, in their order; scripted, the whole batch is one script call. */
    List<ReportStatus> reportMany(List<AttemptReport> reports) {
        if (reports.isEmpty()) {
            return List.of();
        }
        if (ctx.options.scripted()) {
            return scripted(reports);
        }
        List<ReportStatus> statuses = new ArrayList<>(reports.size());
        for (AttemptReport r : reports) {
            statuses.add(ctx.optimistic("report", () -> tryReport(r.id(), r.attempt(), r.outcome())));
        }
        return statuses;
    }

    private List<ReportStatus> scripted(List<AttemptReport> reports) {
        List<byte[]> args = new ArrayList<>(4 + 9 * reports.size());
        args.add(JqContext.bytes(ctx.keys.prefix()));
        args.add(JqContext.bytes(ctx.scriptTime()));
        args.add(JqContext.bytes(ctx.options.resultRetention().toMillis()));
        args.add(JqContext.bytes(FAILURES_KEPT));
        for (AttemptReport r : reports) {
            boolean failure = r.outcome() instanceof Outcome.Failure;
            Outcome.Failure f = failure ? (Outcome.Failure) r.outcome() : null;
            args.add(JqContext.bytes(r.id()));
            args.add(JqContext.bytes(r.attempt()));
            args.add(JqContext.bytes(failure ? "f" : "s"));
            args.add(JqContext.bytes(failure && f.shouldRetry() ? 1 : 0));
            args.add(JqContext.bytes(failure ? f.reason() : ""));
            args.add(JqContext.bytes(failure && f.message() != null ? f.message() : ""));
            args.add(JqContext.bytes(failure && f.message() != null ? 1 : 0));
            args.add(r.outcome().encoded());
            args.add(JqContext.bytes(ctx.options.backoff(r.attempt()).toMillis()));
        }
        List<?> reply = (List<?>) JqScripts.REPORT.run(ctx.jedis, List.of(ctx.keys.running(), ctx.keys.delayed(),
                ctx.keys.succeeded(), ctx.keys.failed(), ctx.keys.failures(), ctx.keys.results()), args);
        List<ReportStatus> statuses = new ArrayList<>(reply.size());
        for (Object status : reply) {
            statuses.add((Long) status == 1 ? ReportStatus.ACCEPTED : ReportStatus.STALE);
        }
        return statuses;
    }

    /**
     * Takes back attempt {@code attempt} that never reached a worker (the push delivery could not connect): the
     * job returns to the ready set as it was before the claim. The attempt does not count (attempts goes back, so
     * the next dispatch reuses the number: no worker ever saw it, so no stale report can carry it), its
     * constraint slot and its rate-window entry are given back. STALE when that attempt is not running any more.
     */
    ReportStatus release(long id, int attempt) {
        if (ctx.options.scripted()) {
            Object released = JqScripts.RELEASE.run(ctx.jedis, List.of(ctx.keys.running(), ctx.keys.ready()),
                    List.of(JqContext.bytes(ctx.keys.prefix()), JqContext.bytes(id), JqContext.bytes(attempt)));
            return (Long) released == 1 ? ReportStatus.ACCEPTED : ReportStatus.STALE;
        }
        return ctx.optimistic("release", () -> tryRelease(id, attempt));
    }

    private ReportStatus tryRelease(long id, int attempt) {
        byte[] jobKey = ctx.keys.job(id);
        JobRecord job = watchRunning(id, attempt);
        if (job == null) {
            return ReportStatus.STALE;
        }
        byte[] member = JqKeys.member(id);
        Transaction tx = ctx.jedis.multi();
        tx.zrem(ctx.keys.running(), member);
        constraints.planRelease(tx, job.heldConstraints(), id);
        constraints.planForgetStart(tx, job.heldConstraints(), id, attempt);
        tx.hdel(jobKey, JqContext.bytes(JobRecord.CONSTRAINTS), JqContext.bytes(JobRecord.DEADLINE),
                JqContext.bytes(JobRecord.WORKER));
        tx.hset(jobKey, Map.of(JqContext.bytes(JobRecord.STATE), JqContext.bytes(JobState.QUEUED.wire()),
                JqContext.bytes(JobRecord.ATTEMPTS), JqContext.bytes(attempt - 1)));
        tx.zadd(ctx.keys.ready(), job.request().priority(), member);
        Stats.move(tx, ctx.keys, job.request().name(), JobState.RUNNING, JobState.QUEUED);
        return tx.exec() == null ? null : ReportStatus.ACCEPTED;
    }

    /** WATCHes the job and reads it in one round trip; null (unwatched) unless attempt {@code attempt} runs. */
    private JobRecord watchRunning(long id, int attempt) {
        byte[] jobKey = ctx.keys.job(id);
        // The read comes after the WATCH in the pipeline, so any later change aborts the EXEC.
        Pipeline p = ctx.jedis.pipelined();
        p.sendCommand(Protocol.Command.WATCH, jobKey);
        Response<Map<byte[], byte[]>> fields = p.hgetAll(jobKey);
        p.sync();
        JobRecord job = JobRecord.read(id, fields.get());
        if (job == null || job.state() != JobState.RUNNING || job.attempts() != attempt) {
            ctx.jedis.unwatch();
            return null;
        }
        return job;
    }

    /** Fails every running attempt whose deadline has passed, with reason "timeout" (retried as the job allows). */
    int expireOverdue() {
        int expired = 0;
        List<byte[]> overdue = ctx.jedis.zrangeByScore(ctx.keys.running(), Double.NEGATIVE_INFINITY, ctx.now());
        for (byte[] member : overdue) {
            long id = JqKeys.idOf(member);
            JobRecord job = JobRecord.read(id, ctx.jedis.hgetAll(ctx.keys.job(id)));
            if (job == null || job.state() != JobState.RUNNING || job.deadline() > ctx.now()) {
                continue;
            }
            String message = "no result within " + job.request().timeoutMillis() + " ms";
            byte[] encoded = Msgpack.encode(Msgpack.map("type", "failure", "reason", "timeout",
                    "finished_at", java.time.Instant.ofEpochMilli(ctx.now()).toString(), "should_retry", true,
                    "error", null, "message", message));
            Outcome timeout = new Outcome.Failure(encoded, "timeout", true, message);
            if (report(id, job.attempts(), timeout) == ReportStatus.ACCEPTED) {
                expired++;
            }
        }
        return expired;
    }

    private ReportStatus tryReport(long id, int attempt, Outcome outcome) {
        byte[] jobKey = ctx.keys.job(id);
        JobRecord job = watchRunning(id, attempt);
        if (job == null) {
            return ReportStatus.STALE;
        }
        long now = ctx.now();
        byte[] member = JqKeys.member(id);
        String name = job.request().name();
        Transaction tx = ctx.jedis.multi();
        tx.zrem(ctx.keys.running(), member);
        constraints.planRelease(tx, job.heldConstraints(), id);
        tx.hdel(jobKey, JqContext.bytes(JobRecord.CONSTRAINTS), JqContext.bytes(JobRecord.DEADLINE));
        if (outcome instanceof Outcome.Failure failure) {
            tx.lpush(ctx.keys.failures(), Msgpack.encode(Msgpack.map("id", id, "name", name, "attempt", attempt,
                    "reason", failure.reason(), "message", failure.message(), "at", now)));
            tx.ltrim(ctx.keys.failures(), 0, FAILURES_KEPT - 1);
            tx.hset(jobKey, JqContext.bytes(JobRecord.LAST_MESSAGE), JqContext.bytes(String.valueOf(failure.message())));
            if (failure.shouldRetry() && attempt <= job.request().maxRetry()) {
                long eligible = now + ctx.options.backoff(attempt).toMillis();
                tx.hset(jobKey, Map.of(JqContext.bytes(JobRecord.STATE), JqContext.bytes(JobState.DELAYED.wire()),
                        JqContext.bytes(JobRecord.ELIGIBLE_AT), JqContext.bytes(eligible)));
                tx.zadd(ctx.keys.delayed(), eligible, member);
                Stats.move(tx, ctx.keys, name, JobState.RUNNING, JobState.DELAYED);
                return tx.exec() == null ? null : ReportStatus.ACCEPTED;
            }
        }
        planEnd(tx, job, outcome, JobState.RUNNING, now);
        return tx.exec() == null ? null : ReportStatus.ACCEPTED;
    }

    /** The job's end: its state, its finished set, its stats, and its kept result. */
    private void planEnd(Transaction tx, JobRecord job, Outcome outcome, JobState from, long now) {
        long id = job.id();
        byte[] member = JqKeys.member(id);
        JobState end = outcome instanceof Outcome.Success ? JobState.SUCCEEDED : JobState.FAILED;
        tx.hset(ctx.keys.job(id), Map.of(JqContext.bytes(JobRecord.STATE), JqContext.bytes(end.wire()),
                JqContext.bytes(JobRecord.FINISHED_AT), JqContext.bytes(now)));
        tx.zadd(end == JobState.SUCCEEDED ? ctx.keys.succeeded() : ctx.keys.failed(), now, member);
        Stats.move(tx, ctx.keys, job.request().name(), from, end);
        if (job.request().keepResult()) {
            tx.set(ctx.keys.result(id), outcome.encoded());
            tx.zadd(ctx.keys.results(), now + ctx.options.resultRetention().toMillis(), member);
        }
    }

    /**
     * Cancels a job that has not finished: it ends as failed with reason "cancelled" (no retry), wherever it was.
     * A running attempt loses its constraint slot at once, and its worker's late report is stale (409).
     * @return the job's state afterwards and whether this call cancelled it; empty when there is no such job
     */
    Optional<CancelResult> cancel(long id) {
        if (ctx.options.scripted()) {
            List<?> reply = (List<?>) JqScripts.CANCEL.run(ctx.jedis, List.of(ctx.keys.ready(), ctx.keys.delayed(),
                    ctx.keys.running(), ctx.keys.failed(), ctx.keys.results()), List.of(
                    JqContext.bytes(ctx.keys.prefix()), JqContext.bytes(ctx.scriptTime()), JqContext.bytes(id),
                    JqContext.bytes(ctx.options.resultRetention().toMillis())));
            if (reply.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new CancelResult(JobState.fromWire(JqContext.text((byte[]) reply.get(0))),
                    (Long) reply.get(1) == 1));
        }
        return ctx.optimistic("cancel", () -> tryCancel(id));
    }

    private Optional<CancelResult> tryCancel(long id) {
        byte[] jobKey = ctx.keys.job(id);
        Pipeline p = ctx.jedis.pipelined();
        p.sendCommand(Protocol.Command.WATCH, jobKey);
        Response<Map<byte[], byte[]>> fields = p.hgetAll(jobKey);
        p.sync();
        JobRecord job = JobRecord.read(id, fields.get());
        if (job == null || job.state() == JobState.SUCCEEDED || job.state() == JobState.FAILED) {
            ctx.jedis.unwatch();
            return job == null ? Optional.empty() : Optional.of(new CancelResult(job.state(), false));
        }
        long now = ctx.now();
        byte[] member = JqKeys.member(id);
        String message = "cancelled";
        byte[] encoded = Msgpack.encode(Msgpack.map("type", "failure", "reason", "cancelled",
                "finished_at", java.time.Instant.ofEpochMilli(now).toString(), "should_retry", false,
                "error", null, "message", message));
        Transaction tx = ctx.jedis.multi();
        switch (job.state()) {
            case QUEUED -> tx.zrem(ctx.keys.ready(), member);
            case DELAYED -> tx.zrem(ctx.keys.delayed(), member);
            default -> {
                tx.zrem(ctx.keys.running(), member);
                constraints.planRelease(tx, job.heldConstraints(), id);
                tx.hdel(jobKey, JqContext.bytes(JobRecord.CONSTRAINTS), JqContext.bytes(JobRecord.DEADLINE));
            }
        }
        tx.hset(jobKey, JqContext.bytes(JobRecord.LAST_MESSAGE), JqContext.bytes(message));
        planEnd(tx, job, new Outcome.Failure(encoded, "cancelled", false, message), job.state(), now);
        return tx.exec() == null ? null : Optional.of(new CancelResult(JobState.FAILED, true));
    }
}
