package dev.redsim.queue.jq;

import redis.clients.jedis.Transaction;

/**
 * Enqueue: the id comes from INCR first (a crash after it only leaves a gap: the pusher got no id, nothing was
 * accepted), then one MULTI writes the hash, the ready entry and the counters together.
 */
final class Enqueuer {
    private final JqContext ctx;

    Enqueuer(JqContext ctx) {
        this.ctx = ctx;
    }

    long enqueue(JobRequest request) {
        long id = ctx.jedis.incr(ctx.keys.sequence());
        Transaction tx = ctx.jedis.multi();
        tx.hset(ctx.keys.job(id), JobRecord.fieldsOf(request, ctx.now()));
        tx.zadd(ctx.keys.ready(), request.priority(), JqKeys.member(id));
        tx.sadd(ctx.keys.names(), JqContext.bytes(request.name()));
        tx.hincrBy(ctx.keys.stats(request.name()), JqContext.bytes(JobState.QUEUED.wire()), 1);
        tx.exec();
        return id;
    }
}
