package dev.redsim.queue.jq;

import redis.clients.jedis.Transaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses and dispatches the next job, as the spec's selection: among eligible jobs, the smallest priority, ties
 * in enqueue order (the ready set's member order). A job whose constraints are full right now is not eligible, so
 * the next one in that order is taken (see docs/contracts/jq.md, decision 3). Everything read is WATCHed, so the
 * choice, the constraint check and the bookkeeping commit together or are retried.
 */
final class Dispatcher {
    private final JqContext ctx;
    private final Constraints constraints;

    Dispatcher(JqContext ctx, Constraints constraints) {
        this.ctx = ctx;
        this.constraints = constraints;
    }

    Optional<Assignment> claim(String worker) {
        promoteDue();
        return ctx.optimistic("claim", () -> tryClaim(worker));
    }

    /** Moves failed jobs whose backoff has passed back into the ready set (they rejoin S). */
    int promoteDue() {
        return ctx.optimistic("promote", this::tryPromote);
    }

    private Integer tryPromote() {
        long now = ctx.now();
        // One unwatched look first: most claims find nothing due, and then need no WATCH round trips.
        if (ctx.jedis.zrangeByScore(ctx.keys.delayed(), Double.NEGATIVE_INFINITY, now, 0, 1).isEmpty()) {
            return 0;
        }
        ctx.jedis.watch(ctx.keys.delayed());
        List<byte[]> due = ctx.jedis.zrangeByScore(ctx.keys.delayed(), Double.NEGATIVE_INFINITY, now);
        if (due.isEmpty()) {
            ctx.jedis.unwatch();
            return 0;
        }
        List<JobRecord> jobs = new ArrayList<>();
        for (byte[] member : due) {
            long id = JqKeys.idOf(member);
            JobRecord job = JobRecord.read(id, ctx.jedis.hgetAll(ctx.keys.job(id)));
            if (job != null) {
                jobs.add(job);
            }
        }
        Transaction tx = ctx.jedis.multi();
        for (byte[] member : due) {
            tx.zrem(ctx.keys.delayed(), member);
        }
        for (JobRecord job : jobs) {
            tx.zadd(ctx.keys.ready(), job.request().priority(), JqKeys.member(job.id()));
            tx.hset(ctx.keys.job(job.id()), JqContext.bytes(JobRecord.STATE), JqContext.bytes(JobState.QUEUED.wire()));
            Stats.move(tx, ctx.keys, job.request().name(), JobState.DELAYED, JobState.QUEUED);
        }
        return tx.exec() == null ? null : jobs.size();
    }

    private Optional<Assignment> tryClaim(String worker) {
        long now = ctx.now();
        ctx.jedis.watch(ctx.keys.ready(), ctx.keys.constraints());
        List<Constraint> all = constraints.list();
        // Pages that grow (1, 8, 64, ...): usually the first job is admitted, and a claim reads one member.
        int from = 0;
        for (int page = 1; from < ctx.options.candidateScan(); page *= 8) {
            int to = Math.min(from + page, ctx.options.candidateScan()) - 1;
            List<byte[]> candidates = ctx.jedis.zrange(ctx.keys.ready(), from, to);
            for (byte[] member : candidates) {
                long id = JqKeys.idOf(member);
                JobRecord job = JobRecord.read(id, ctx.jedis.hgetAll(ctx.keys.job(id)));
                if (job == null) {
                    continue;
                }
                List<Constraint> matched = all.stream()
                        .filter(c -> c.matcher().matches(job.request().name(), job.request().argument())).toList();
                if (constraints.admit(matched, now)) {
                    return commit(job, matched, worker, now);
                }
            }
            if (candidates.size() < to - from + 1) {
                break;
            }
            from = to + 1;
        }
        ctx.jedis.unwatch();
        return Optional.empty();
    }

    private Optional<Assignment> commit(JobRecord job, List<Constraint> matched, String worker, long now) {
        int attempt = job.attempts() + 1;
        long deadline = now + job.request().timeoutMillis();
        byte[] member = JqKeys.member(job.id());
        Transaction tx = ctx.jedis.multi();
        tx.zrem(ctx.keys.ready(), member);
        tx.zadd(ctx.keys.running(), deadline, member);
        tx.hset(ctx.keys.job(job.id()), Map.of(
                JqContext.bytes(JobRecord.STATE), JqContext.bytes(JobState.RUNNING.wire()),
                JqContext.bytes(JobRecord.ATTEMPTS), JqContext.bytes(attempt),
                JqContext.bytes(JobRecord.DEADLINE), JqContext.bytes(deadline),
                JqContext.bytes(JobRecord.WORKER), JqContext.bytes(worker),
                JqContext.bytes(JobRecord.CONSTRAINTS),
                JqContext.bytes(String.join(",", matched.stream().map(Constraint::id).toList()))));
        constraints.planAcquire(tx, matched, job.id(), attempt, now);
        Stats.move(tx, ctx.keys, job.request().name(), JobState.QUEUED, JobState.RUNNING);
        if (tx.exec() == null) {
            return null;
        }
        return Optional.of(new Assignment(job.id(), attempt, job.request().name(), job.request().argument(),
                job.request().timeoutMillis(), deadline));
    }
}
