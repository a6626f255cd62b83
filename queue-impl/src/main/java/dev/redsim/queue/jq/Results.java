package dev.redsim.queue.jq;

import redis.clients.jedis.Transaction;

import java.util.List;
import java.util.Optional;

/**
 * Kept results: read once (the read deletes it in the same transaction, so two readers cannot both get it), and
 * gone after the retention time (a read past the deadline returns nothing even before the sweep has run).
 */
final class Results {
    /** Entries of each kind one sweep script drops at most: bounds the time the server spends in one call. */
    static final int SWEEP_LIMIT = 1000;

    private final JqContext ctx;

    Results(JqContext ctx) {
        this.ctx = ctx;
    }

    /** The kept outcome (the worker's result object) once; empty after it was read, expired, or not kept. */
    Optional<byte[]> take(long id) {
        return takeWithState(id).result();
    }

    /** {@link #take} and the job's state, read in the same transaction (one round trip for the master's API). */
    TakenResult takeWithState(long id) {
        if (ctx.options.scripted()) {
            List<?> reply = (List<?>) JqScripts.TAKE_RESULT.run(ctx.jedis, List.of(ctx.keys.results()), List.of(
                    JqContext.bytes(ctx.keys.prefix()), JqContext.bytes(ctx.scriptTime()), JqContext.bytes(id)));
            Optional<JobState> state = reply.size() > 2 && reply.get(2) != null
                    ? Optional.of(JobState.fromWire(JqContext.text((byte[]) reply.get(2)))) : Optional.empty();
            return new TakenResult((Long) reply.get(0) == 1 ? Optional.of((byte[]) reply.get(1)) : Optional.empty(),
                    state);
        }
        byte[] member = JqKeys.member(id);
        Transaction tx = ctx.jedis.multi();
        tx.get(ctx.keys.result(id));
        tx.zscore(ctx.keys.results(), member);
        tx.del(ctx.keys.result(id));
        tx.zrem(ctx.keys.results(), member);
        tx.hget(ctx.keys.job(id), JqContext.bytes(JobRecord.STATE));
        List<Object> replies = tx.exec();
        byte[] result = (byte[]) replies.get(0);
        Double expires = (Double) replies.get(1);
        byte[] state = (byte[]) replies.get(4);
        Optional<JobState> jobState = Optional.ofNullable(state).map(s -> JobState.fromWire(JqContext.text(s)));
        if (result == null || expires == null || expires <= ctx.now()) {
            return new TakenResult(Optional.empty(), jobState);
        }
        return new TakenResult(Optional.of(result), jobState);
    }

    /**
     * Scripted upkeep (sweep.lua): expired results and finished records older than the finished retention, up to
     * {@link #SWEEP_LIMIT} of each per call, called again while a call reached the limit.
     */
    void sweepScripted() {
        while (true) {
            List<?> reply = (List<?>) JqScripts.SWEEP.run(ctx.jedis, List.of(ctx.keys.results(), ctx.keys.succeeded(),
                    ctx.keys.failed()), List.of(JqContext.bytes(ctx.keys.prefix()), JqContext.bytes(ctx.scriptTime()),
                    JqContext.bytes(ctx.options.finishedRetention().toMillis()), JqContext.bytes(SWEEP_LIMIT)));
            if ((Long) reply.get(2) == 0) {
                return;
            }
        }
    }

    /** Drops results past retention (reads already ignore them: this only frees memory). */
    int sweep() {
        List<byte[]> expired = ctx.jedis.zrangeByScore(ctx.keys.results(), Double.NEGATIVE_INFINITY, ctx.now());
        if (expired.isEmpty()) {
            return 0;
        }
        Transaction tx = ctx.jedis.multi();
        for (byte[] member : expired) {
            tx.del(ctx.keys.result(JqKeys.idOf(member)));
            tx.zrem(ctx.keys.results(), member);
        }
        tx.exec();
        return expired.size();
    }
}
