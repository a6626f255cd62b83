package dev.redsim.queue.jq;

import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * Chooses and dispatches the next job, as the spec's selection: among eligible jobs, the smallest priority, ties
 * in enqueue order (the ready set's member order). A job whose constraints are full right now is not eligible, so
 * the next one in that order is taken (see docs/contracts/jq.md, decision 3); the scan goes on page after page
 * until a job is admitted or the ready set ends. Scripted (the default), claim.lua does all of it in one call,
 * constraints included (matching.lua). In the optimistic form, the constraints and the chosen job's hash are
 * WATCHed, so the constraint check and the bookkeeping commit together or are retried; the ready set is read but not
 * watched (an enqueue that lands after the read is simply not seen by this claim, as if it came just after it).
 *
 * <p>Round trips of the optimistic claim: one pipeline (due-retry peek, WATCH, constraint definitions, the head of
 * the ready set), one HGETALL per page of candidates, one pipeline per constraint first consulted, and the
 * MULTI/EXEC: three in the usual case where the head of the ready set is admitted.
 */
final class Dispatcher {
    private final JqContext ctx;
    private final Constraints constraints;

    Dispatcher(JqContext ctx, Constraints constraints) {
        this.ctx = ctx;
        this.constraints = constraints;
    }

    Optional<Assignment> claim(String worker) {
        List<Assignment> claimed = claimMany(worker, 1, null);
        return claimed.isEmpty() ? Optional.empty() : Optional.of(claimed.get(0));
    }

    /**
     * Up to {@code n} jobs, in the order the spec's selection gives them. Scripted (the default): one script call,
     * which evaluates the constraints itself (matching.lua), so no claim needs a lock. Optimistic
     * (Transitions.OPTIMISTIC): one WATCH/MULTI claim per job; {@code optimisticClaims} (may be null) is held around
     * them: a master passes one lock for all its threads, because concurrent WATCH/MULTI claims of the same head job
     * conflict and all but one start over.
     */
    List<Assignment> claimMany(String worker, int n, Lock optimisticClaims) {
        if (n < 1) {
            return List.of();
        }
        if (ctx.options.scripted()) {
            return scripted(worker, n);
        }
        if (optimisticClaims == null) {
            return optimistic(worker, n);
        }
        optimisticClaims.lock();
        try {
            return optimistic(worker, n);
        } finally {
            optimisticClaims.unlock();
        }
    }

    private List<Assignment> optimistic(String worker, int n) {
        List<Assignment> claimed = new ArrayList<>();
        while (claimed.size() < n) {
            Optional<Assignment> one = ctx.optimistic("claim", () -> tryClaim(worker));
            if (one.isEmpty()) {
                break;
            }
            claimed.add(one.get());
        }
        return claimed;
    }

    /** The claim script's dispatches. */
    private List<Assignment> scripted(String worker, int n) {
        List<?> reply = (List<?>) JqScripts.CLAIM.run(ctx.jedis,
                List.of(ctx.keys.delayed(), ctx.keys.ready(), ctx.keys.running(), ctx.keys.constraints()),
                List.of(JqContext.bytes(ctx.keys.prefix()), JqContext.bytes(ctx.scriptTime()),
                        JqContext.bytes(worker), JqContext.bytes(n), JqContext.bytes(ctx.options.scanPage())));
        long count = (Long) reply.get(0);
        List<Assignment> claimed = new ArrayList<>((int) count);
        for (int i = 1; i < reply.size(); i += 6) {
            claimed.add(new Assignment((Long) reply.get(i), ((Long) reply.get(i + 1)).intValue(),
                    JqContext.text((byte[]) reply.get(i + 2)), (byte[]) reply.get(i + 3), (Long) reply.get(i + 4),
                    (Long) reply.get(i + 5)));
        }
        return claimed;
    }

    /**
     * Moves failed jobs whose backoff has passed back into the ready set (they rejoin S). Scripted: promote.lua, one
     * call whether or not a job is due; optimistic: an unwatched peek, then WATCH/MULTI when one is.
     */
    int promoteDue() {
        if (ctx.options.scripted()) {
            return ((Long) JqScripts.PROMOTE.run(ctx.jedis, List.of(ctx.keys.delayed(), ctx.keys.ready()),
                    List.of(JqContext.bytes(ctx.keys.prefix()), JqContext.bytes(ctx.scriptTime())))).intValue();
        }
        return ctx.optimistic("promote", () -> hasDue(ctx.now()) ? tryPromote() : 0);
    }

    /** One unwatched look: most of the time nothing is due, and then no WATCH round trip is needed. */
    private boolean hasDue(long now) {
        return !ctx.jedis.zrangeByScore(ctx.keys.delayed(), Double.NEGATIVE_INFINITY, now, 0, 1).isEmpty();
    }

    private Integer tryPromote() {
        long now = ctx.now();
        Pipeline p = ctx.jedis.pipelined();
        p.sendCommand(Protocol.Command.WATCH, ctx.keys.delayed());
        Response<List<byte[]>> dueReply = p.zrangeByScore(ctx.keys.delayed(), Double.NEGATIVE_INFINITY, now);
        p.sync();
        List<byte[]> due = dueReply.get();
        if (due.isEmpty()) {
            ctx.jedis.unwatch();
            return 0;
        }
        List<JobRecord> jobs = readJobs(due);
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
        Pipeline p = ctx.jedis.pipelined();
        // The peek is not watched: a retry that becomes due meanwhile simply waits for the next claim.
        Response<List<byte[]>> due = p.zrangeByScore(ctx.keys.delayed(), Double.NEGATIVE_INFINITY, now, 0, 1);
        // The ready set is not watched: every enqueue writes it, so watching it let a steady stream of enqueues
        // abort every claim. The chosen job's hash is watched instead (see commit), which is what two claims of the
        // same job, a cancel or a promotion all write.
        p.sendCommand(Protocol.Command.WATCH, ctx.keys.constraints());
        Response<Map<byte[], byte[]>> definitions = p.hgetAll(ctx.keys.constraints());
        Response<List<byte[]>> head = p.zrange(ctx.keys.ready(), 0, 0);
        p.sync();
        if (!due.get().isEmpty()) {
            ctx.jedis.unwatch();
            promoteDue();
            return null; // read again: the promoted jobs may come first
        }
        List<Constraint> all = Constraints.parse(definitions.get());
        Map<String, Boolean> room = new HashMap<>();
        List<byte[]> candidates = head.get();
        // Pages that grow (1, 8, 64, then the scan page): usually the head is admitted after reading one member.
        long from = 0;
        int page = 1;
        while (!candidates.isEmpty()) {
            for (JobRecord job : readJobs(candidates)) {
                List<Constraint> matched = all.stream()
                        .filter(c -> c.matcher().matches(job.request().name(), job.request().argument())).toList();
                if (constraints.admit(matched, now, room)) {
                    return commit(job, matched, worker, now);
                }
            }
            if (candidates.size() < page) {
                break;
            }
            from += page;
            page = Math.min(page * 8, ctx.options.scanPage());
            candidates = ctx.jedis.zrange(ctx.keys.ready(), from, from + page - 1);
        }
        ctx.jedis.unwatch();
        return Optional.empty();
    }

    /** The job hashes of {@code members}, in their order, in one pipeline; records trimmed meanwhile are left out. */
    private List<JobRecord> readJobs(List<byte[]> members) {
        Pipeline p = ctx.jedis.pipelined();
        List<Response<Map<byte[], byte[]>>> replies = new ArrayList<>(members.size());
        for (byte[] member : members) {
            replies.add(p.hgetAll(ctx.keys.job(JqKeys.idOf(member))));
        }
        p.sync();
        List<JobRecord> jobs = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) {
            JobRecord job = JobRecord.read(JqKeys.idOf(members.get(i)), replies.get(i).get());
            if (job != null) {
                jobs.add(job);
            }
        }
        return jobs;
    }

    private Optional<Assignment> commit(JobRecord job, List<Constraint> matched, String worker, long now) {
        // WATCH the job's hash, then check it is still the queued job we read (state and attempts): a claim,
        // cancel or promotion in between either shows here or aborts the EXEC.
        Pipeline p = ctx.jedis.pipelined();
        p.sendCommand(Protocol.Command.WATCH, ctx.keys.job(job.id()));
        Response<List<byte[]>> current = p.hmget(ctx.keys.job(job.id()), JqContext.bytes(JobRecord.STATE),
                JqContext.bytes(JobRecord.ATTEMPTS));
        p.sync();
        List<byte[]> fields = current.get();
        if (fields.get(0) == null || JobState.fromWire(JqContext.text(fields.get(0))) != JobState.QUEUED
                || Long.parseLong(JqContext.text(fields.get(1))) != job.attempts()) {
            ctx.jedis.unwatch();
            return null;
        }
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
                JobRecord.encodeHeld(matched.stream().map(Constraint::id).toList())));
        constraints.planAcquire(tx, matched, job.id(), attempt, now);
        Stats.move(tx, ctx.keys, job.request().name(), JobState.QUEUED, JobState.RUNNING);
        if (tx.exec() == null) {
            return null;
        }
        return Optional.of(new Assignment(job.id(), attempt, job.request().name(), job.request().argument(),
                job.request().timeoutMillis(), deadline));
    }
}
