package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ZAddParams;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;

/**
 * Claim, complete, fail and extend. A claim moves the oldest job of a queue into the lease set in one
 * transaction (no window in which a crash loses it); every later step checks the fencing token under WATCH, so a
 * worker whose lease expired and whose job was reclaimed cannot finish, fail or extend it.
 */
final class Worker {
    private final Optimistic redis;
    private final ConveyorKeys keys;
    private final Finisher finisher;
    private final InstantSource clock;
    private final ConveyorOptions options;

    Worker(Optimistic redis, ConveyorKeys keys, Finisher finisher, InstantSource clock, ConveyorOptions options) {
        this.redis = redis;
        this.keys = keys;
        this.finisher = finisher;
        this.clock = clock;
        this.options = options;
    }

    Optional<Lease> claim(Deadline deadline, String queue) {
        return redis.run("claim", deadline, () -> tryClaim(queue));
    }

    private Optional<Lease> tryClaim(String queue) {
        Jedis jedis = redis.jedis();
        byte[] queueKey = keys.queue(queue);
        jedis.watch(queueKey);
        byte[] oldest = jedis.lindex(queueKey, -1);
        if (oldest == null) {
            jedis.unwatch();
            return Optional.empty();
        }
        Job decoded;
        try {
            decoded = JobWire.decode(oldest);
        } catch (MarshalException e) {
            // Bytes nobody can run would block every claim of this queue: move them aside (still under the WATCH
            // on the queue, so the tail we move is the one we read) and let the caller's loop try the next job.
            Plan aside = new Plan().then(tx -> tx.rpop(queueKey)).then(tx -> tx.lpush(keys.deadLetters(), oldest));
            aside.exec(jedis);
            return null;
        }
        Instant now = clock.instant();
        Job running = decoded.running(now);
        String token = UUID.randomUUID().toString();
        Instant expires = now.plus(options.lease());
        byte[] id = Placement.utf8(running.uuid());
        Plan plan = new Plan()
                .then(tx -> tx.rpop(queueKey))
                .then(tx -> tx.set(keys.job(running.uuid()), JobWire.encode(running)))
                .then(tx -> tx.set(keys.lease(running.uuid()), Placement.utf8(token)))
                .then(tx -> tx.zadd(keys.leases(), expires.toEpochMilli(), id));
        return plan.exec(jedis) == null ? null : Optional.of(new Lease(running, token, expires));
    }

    void complete(Deadline deadline, Lease lease) {
        finish(deadline, "complete", lease, lease.job().finished(JobStatus.COMPLETED, lease.job().lastFailure()));
    }

    /** Retries with backoff through the scheduled set while retries remain; otherwise the job has failed. */
    void fail(Deadline deadline, Lease lease, String reason) {
        Job job = lease.job();
        if (job.retry() >= job.maxRetries()) {
            finish(deadline, "fail", lease, job.finished(JobStatus.FAILED, reason));
            return;
        }
        Job retried = job.retried(clock.instant().plus(options.backoff(job.retry() + 1)), reason);
        byte[] bytes = JobWire.encode(retried);
        redis.run("fail", deadline, () -> {
            Plan plan = new Plan();
            fence(lease);
            plan.then(tx -> tx.zrem(keys.leases(), Placement.utf8(job.uuid())))
                    .then(tx -> tx.del(keys.lease(job.uuid())))
                    .then(tx -> tx.set(keys.job(job.uuid()), bytes))
                    .then(tx -> tx.zadd(keys.scheduled(), Placement.epochSeconds(retried.runAt()), bytes));
            return plan.exec(redis.jedis()) == null ? null : Boolean.TRUE;
        });
    }

    /**
     * Hands a leased job back without running it (a worker stopping): it goes to the claiming end of its queue, so
     * it is the next one taken, its record is ENQUEUED again and no retry is consumed. Fenced like complete.
     */
    void release(Deadline deadline, Lease lease) {
        Job requeued = lease.job().requeued();
        byte[] bytes = JobWire.encode(requeued);
        redis.run("release", deadline, () -> {
            fence(lease);
            Plan plan = new Plan()
                    .then(tx -> tx.zrem(keys.leases(), Placement.utf8(lease.uuid())))
                    .then(tx -> tx.del(keys.lease(lease.uuid())))
                    .then(tx -> tx.set(keys.job(lease.uuid()), bytes))
                    .then(tx -> tx.rpush(keys.queue(requeued.queue()), bytes));
            Placement.wake(plan, keys, requeued.queue());
            return plan.exec(redis.jedis()) == null ? null : Boolean.TRUE;
        });
    }

    /** Renews the lease for another lease period from now; the token stays, so the owner stays the owner. */
    Lease extend(Deadline deadline, Lease lease) {
        Instant expires = clock.instant().plus(options.lease());
        return redis.run("extend", deadline, () -> {
            fence(lease);
            Plan plan = new Plan()
                    .then(tx -> tx.zadd(keys.leases(), expires.toEpochMilli(), Placement.utf8(lease.uuid()),
                            ZAddParams.zAddParams().xx()))
                    // Rewriting the token touches the watched key, so a recovery racing with us retries.
                    .then(tx -> tx.set(keys.lease(lease.uuid()), Placement.utf8(lease.token())));
            return plan.exec(redis.jedis()) == null ? null : new Lease(lease.job(), lease.token(), expires);
        });
    }

    private void finish(Deadline deadline, String operation, Lease lease, Job finished) {
        Optional<String> parent = redis.run(operation, deadline, () -> {
            fence(lease);
            Plan plan = new Plan();
            String toSettle = finisher.planFinish(finished, plan);
            return plan.exec(redis.jedis()) == null ? null : Optional.ofNullable(toSettle);
        });
        parent.ifPresent(p -> settle(deadline, finished.uuid(), p));
    }

    /**
     * Settles the parent that {@code child} left (see {@link Finisher}), then, when the parent was finalized, the
     * parent's own parent, and so on up.
     */
    void settle(Deadline deadline, String child, String parent) {
        String leaving = child;
        String next = parent;
        while (next != null) {
            String from = leaving;
            String to = next;
            Optional<String> up = redis.run("settle", deadline, () -> {
                Plan plan = new Plan();
                Optional<String> planned = finisher.planSettle(from, to, plan);
                if (planned == null) {
                    redis.jedis().srem(keys.settling(), Placement.utf8(from)); // not ready: a sibling settles it
                    return Optional.<String>empty();
                }
                return plan.exec(redis.jedis()) == null ? null : planned;
            });
            leaving = to;
            next = up.orElse(null);
        }
    }

    /** Settles the parents left by completers that died before settling them; returns how many entries there were. */
    int settleStranded(Deadline deadline) {
        java.util.Set<byte[]> entries = redis.once("settle", deadline, () -> redis.jedis().smembers(keys.settling()));
        for (byte[] entry : entries) {
            String child = new String(entry, java.nio.charset.StandardCharsets.UTF_8);
            byte[] record = redis.once("settle", deadline, () -> redis.jedis().get(keys.job(child)));
            Job job = record == null ? null : JobWire.decode(record);
            if (job == null || !job.hasParent()) {
                redis.once("settle", deadline, () -> redis.jedis().srem(keys.settling(), entry));
            } else {
                settle(deadline, child, job.parentUuid());
            }
        }
        return entries.size();
    }

    /** Watches the job's lease key and checks that it still holds this lease's token. */
    private void fence(Lease lease) {
        Jedis jedis = redis.jedis();
        jedis.watch(keys.lease(lease.uuid()));
        byte[] current = jedis.get(keys.lease(lease.uuid()));
        if (current == null || !Arrays.equals(current, Placement.utf8(lease.token()))) {
            jedis.unwatch();
            throw new LeaseLostException(lease.uuid());
        }
    }
}
