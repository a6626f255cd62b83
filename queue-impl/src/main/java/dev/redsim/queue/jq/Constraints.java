package dev.redsim.queue.jq;

import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
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
        return parse(ctx.jedis.hgetAll(ctx.keys.constraints()));
    }

    /** The definitions hash, decoded and sorted by id. */
    static List<Constraint> parse(Map<byte[], byte[]> definitions) {
        List<Constraint> out = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> e : definitions.entrySet()) {
            out.add(Constraint.fromValue(JqContext.text(e.getKey()), Msgpack.decode(e.getValue())));
        }
        out.sort((a, b) -> a.id().compareTo(b.id()));
        return out;
    }

    /** Defines or redefines a constraint. Scripted: constraint_put.lua, the same HSET, refused while the slot migrates. */
    void put(Constraint c) {
        byte[] definition = Msgpack.encode(c.toValue());
        if (ctx.options.scripted()) {
            JqScripts.CONSTRAINT_PUT.run(ctx.jedis, List.of(ctx.keys.constraints()), List.of(
                    JqContext.bytes(ctx.keys.prefix()), JqContext.bytes(c.id()), definition));
            return;
        }
        ctx.jedis.hset(ctx.keys.constraints(), JqContext.bytes(c.id()), definition);
    }

    /**
     * Removes the definition and its bookkeeping; running jobs that held it release nothing later. Scripted:
     * constraint_remove.lua, the MULTI/EXEC's writes, refused while the slot migrates.
     */
    boolean remove(String id) {
        if (ctx.options.scripted()) {
            return (Long) JqScripts.CONSTRAINT_REMOVE.run(ctx.jedis, List.of(ctx.keys.constraints(),
                    ctx.keys.constraintStarts(id), ctx.keys.constraintRunning(id)), List.of(
                    JqContext.bytes(ctx.keys.prefix()), JqContext.bytes(id))) == 1L;
        }
        Transaction tx = ctx.jedis.multi();
        tx.hdel(ctx.keys.constraints(), JqContext.bytes(id));
        tx.del(ctx.keys.constraintStarts(id), ctx.keys.constraintRunning(id));
        List<Object> replies = tx.exec();
        return replies != null && ((Long) replies.get(0)) > 0;
    }

    /**
     * Says whether one more dispatch fits all of {@code matched} now. Each constraint is read once per claim
     * attempt (its keys WATCHed in the same pipeline as the reads) and its answer kept in {@code room}, so a scan
     * past many jobs of one full constraint costs one look, not one per job.
     */
    boolean admit(List<Constraint> matched, long now, Map<String, Boolean> room) {
        List<Constraint> unknown = matched.stream().filter(c -> !room.containsKey(c.id())).toList();
        if (!unknown.isEmpty()) {
            Pipeline p = ctx.jedis.pipelined();
            List<Response<Long>> inWindow = new ArrayList<>();
            List<Response<Long>> running = new ArrayList<>();
            for (Constraint c : unknown) {
                p.sendCommand(Protocol.Command.WATCH, ctx.keys.constraintStarts(c.id()),
                        ctx.keys.constraintRunning(c.id()));
                inWindow.add(p.zcount(ctx.keys.constraintStarts(c.id()),
                        JqContext.bytes("(" + (now - c.rateWindowMillis())), JqContext.bytes("+inf")));
                running.add(p.scard(ctx.keys.constraintRunning(c.id())));
            }
            p.sync();
            for (int i = 0; i < unknown.size(); i++) {
                Constraint c = unknown.get(i);
                boolean rateOk = c.rateLimit() == 0 || inWindow.get(i).get() < c.rateLimit();
                boolean concurrencyOk = c.concurrency() == 0 || running.get(i).get() < c.concurrency();
                room.put(c.id(), rateOk && concurrencyOk);
            }
        }
        return matched.stream().allMatch(c -> room.get(c.id()));
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

    /** Drops the rate-window entry of a dispatch that never reached a worker (see Reporter.release). */
    void planForgetStart(Transaction tx, List<String> held, long id, int attempt) {
        for (String c : held) {
            tx.zrem(ctx.keys.constraintStarts(c), JqContext.bytes(id + ":" + attempt));
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
