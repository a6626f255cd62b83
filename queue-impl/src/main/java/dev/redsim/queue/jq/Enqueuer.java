package dev.redsim.queue.jq;

import redis.clients.jedis.Transaction;

import java.util.ArrayList;
import java.util.List;

/**
 * Enqueue. Scripted (the default): one script takes the ids and writes every job of a batch, its ready entry and
 * its counters at once. Optimistic: the id comes from INCR first (a crash after it only leaves a gap: the pusher
 * got no id, nothing was accepted), then one MULTI writes the hash, the ready entry and the counters together.
 */
final class Enqueuer {
    private final JqContext ctx;

    Enqueuer(JqContext ctx) {
        this.ctx = ctx;
    }

    long enqueue(JobRequest request) {
        return enqueueMany(List.of(request)).get(0);
    }

    /** The ids of {@code requests}, in their order. */
    List<Long> enqueueMany(List<JobRequest> requests) {
        if (requests.isEmpty()) {
            return List.of();
        }
        if (ctx.options.scripted()) {
            return scripted(requests);
        }
        List<Long> ids = new ArrayList<>(requests.size());
        for (JobRequest request : requests) {
            ids.add(optimistic(request));
        }
        return ids;
    }

    private List<Long> scripted(List<JobRequest> requests) {
        List<byte[]> args = new ArrayList<>(2 + 6 * requests.size());
        args.add(JqContext.bytes(ctx.keys.prefix()));
        args.add(JqContext.bytes(ctx.scriptTime()));
        for (JobRequest r : requests) {
            args.add(JqContext.bytes(r.name()));
            args.add(r.argument());
            args.add(JqContext.bytes(r.priority()));
            args.add(JqContext.bytes(r.maxRetry()));
            args.add(JqContext.bytes(r.keepResult() ? 1 : 0));
            args.add(JqContext.bytes(r.timeoutMillis()));
        }
        List<?> reply = (List<?>) JqScripts.ENQUEUE.run(ctx.jedis,
                List.of(ctx.keys.sequence(), ctx.keys.ready(), ctx.keys.names()), args);
        List<Long> ids = new ArrayList<>(reply.size());
        for (Object id : reply) {
            ids.add((Long) id);
        }
        return ids;
    }

    private long optimistic(JobRequest request) {
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
