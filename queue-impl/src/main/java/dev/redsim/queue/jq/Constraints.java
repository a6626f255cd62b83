package dev.redsim.queue.jq;

import redis.clients.jedis.Transaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Constraint definitions and their enforcement. Rate: a log of dispatch times per constraint; a dispatch is
 * admitted only when fewer than the limit happened in (now - window, now], which bounds every window of that
 * length. Concurrency: the set of running job ids per constraint. Callers WATCH what {@link #admit} reads.
 */
final class Constraints {
    private final JqContext ctx;

    Constraints(JqContext ctx) {
        this.ctx = ctx;
    }

    List<Constraint> list() {
        List<Constraint> out = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> e : ctx.jedis.hgetAll(ctx.keys.constraints()).entrySet()) {
            out.add(Constraint.fromValue(JqContext.text(e.getKey()), Msgpack.decode(e.getValue())));
        }
        out.sort((a, b) -> a.id().compareTo(b.id()));
        return out;
    }

    void put(Constraint c) {
        ctx.jedis.hset(ctx.keys.constraints(), JqContext.bytes(c.id()), Msgpack.encode(c.toValue()));
    }

    /** Removes the definition and its bookkeeping; running jobs that held it release nothing later. */
    boolean remove(String id) {
        Transaction tx = ctx.jedis.multi();
        tx.hdel(ctx.keys.constraints(), JqContext.bytes(id));
        tx.del(ctx.keys.constraintStarts(id), ctx.keys.constraintRunning(id));
        List<Object> replies = tx.exec();
        return replies != null && ((Long) replies.get(0)) > 0;
    }

    /** Watches the constraints' bookkeeping and says whether one more dispatch fits all of them now. */
    boolean admit(List<Constraint> matched, long now) {
        for (Constraint c : matched) {
            ctx.jedis.watch(ctx.keys.constraintStarts(c.id()), ctx.keys.constraintRunning(c.id()));
            if (c.rateLimit() > 0) {
                long inWindow = ctx.jedis.zcount(ctx.keys.constraintStarts(c.id()),
                        JqContext.bytes("(" + (now - c.rateWindowMillis())), JqContext.bytes("+inf"));
                if (inWindow >= c.rateLimit()) {
                    return false;
                }
            }
            if (c.concurrency() > 0 && ctx.jedis.scard(ctx.keys.constraintRunning(c.id())) >= c.concurrency()) {
                return false;
            }
        }
        return true;
    }

    void planAcquire(Transaction tx, List<Constraint> matched, long id, int attempt, long now) {
        for (Constraint c : matched) {
            if (c.rateLimit() > 0) {
                byte[] starts = ctx.keys.constraintStarts(c.id());
                tx.zremrangeByScore(starts, JqContext.bytes("-inf"), JqContext.bytes(now - c.rateWindowMillis()));
                tx.zadd(starts, now, JqContext.bytes(id + ":" + attempt));
            }
            tx.sadd(ctx.keys.constraintRunning(c.id()), JqContext.bytes(id));
        }
    }

    void planRelease(Transaction tx, List<String> held, long id) {
        for (String c : held) {
            tx.srem(ctx.keys.constraintRunning(c), JqContext.bytes(id));
        }
    }

    /** How many jobs each constraint holds now and dispatched in its current window (for the UI). */
    Map<String, long[]> usage(List<Constraint> all, long now) {
        Map<String, long[]> usage = new java.util.LinkedHashMap<>();
        for (Constraint c : all) {
            long running = ctx.jedis.scard(ctx.keys.constraintRunning(c.id()));
            long window = c.rateLimit() == 0 ? 0 : ctx.jedis.zcount(ctx.keys.constraintStarts(c.id()),
                    JqContext.bytes("(" + (now - c.rateWindowMillis())), JqContext.bytes("+inf"));
            usage.put(c.id(), new long[]{running, window});
        }
        return usage;
    }
}
