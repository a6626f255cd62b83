package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.params.ZAddParams;

import dev.redsim.queue.time.ServerTime;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Claim, complete, fail and extend. A claim moves the oldest job of a queue into the lease set in one
 * transaction (no window in which a crash loses it); every later step checks the fencing token under WATCH, so a
 * worker whose lease expired and whose job was reclaimed cannot finish, fail or extend it. With
 * {@link ConveyorOptions#transitions()} SCRIPTS (the default) each of these is one Lua script (ConveyorScripts),
 * the lease's expiry computed from the time the script reads (Redis's TIME in production); the end of a job with a
 * parent, children or successors is finish.lua, which also settles the parents it leaves (settle.lua goes on where a
 * deep tree needs more than one call).
 */
final class Worker {
    private final Optimistic redis;
    private final ConveyorKeys keys;
    private final Finisher finisher;
    private final InstantSource clock;
    private final ConveyorOptions options;
    /**
     * Parents one script settles at most (finish.lua, settle.lua): a climb up a deeper chain of waiting parents goes on
     * in further calls, so no call runs longer than this many levels however deep the tree (contract 21).
     */
    static final int SETTLE_PER_CALL = 16;

    Worker(Optimistic redis, ConveyorKeys keys, Finisher finisher, InstantSource clock, ConveyorOptions options) {
        this.redis = redis;
        this.keys = keys;
        this.finisher = finisher;
        this.clock = clock;
        this.options = options;
    }

    Optional<Lease> claim(Deadline deadline, String queue) {
        if (options.scripted()) {
            List<Lease> leases = claimMany(deadline, queue, 1);
            return leases.isEmpty() ? Optional.empty() : Optional.of(leases.get(0));
        }
        return redis.run("claim", deadline, () -> tryClaim(queue));
    }

    /** Up to {@code n} jobs from the queue's tail, oldest first; scripted, one round trip for all of them. */
    List<Lease> claimMany(Deadline deadline, String queue, int n) {
        if (!options.scripted()) {
            List<Lease> leases = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Optional<Lease> lease = redis.run("claim", deadline, () -> tryClaim(queue));
                if (lease.isEmpty()) {
                    break;
                }
                leases.add(lease.get());
            }
            return leases;
        }
        List<String> tokens = tokens(n);
        Object reply = redis.once("claim", deadline, () -> ConveyorScripts.CLAIM.run(redis.jedis(),
                claimKeys(queue), claimArgs(tokens)));
        return leases(reply, tokens);
    }

    /**
     * Completes the job and claims up to {@code n} next jobs of {@code queue} in one script: complete.lua's when the
     * job has no parent (a root with children or successors then goes through finish.lua and a claim), finish.lua's
     * when it has one (unless its climb up the tree needs more calls).
     */
    List<Lease> completeAndClaim(Deadline deadline, Lease lease, String queue, int n) {
        Job finished = lease.job().finished(JobStatus.COMPLETED, lease.job().lastFailure());
        if (!options.scripted()) {
            complete(deadline, lease);
            return claimMany(deadline, queue, n);
        }
        if (finished.hasParent()) {
            return finishAndClaim(deadline, lease, finished, queue, n);
        }
        List<String> tokens = tokens(n);
        List<byte[]> keyList = new ArrayList<>(completeKeys(finished));
        keyList.addAll(claimKeys(queue));
        List<byte[]> args = new ArrayList<>(completeArgs(lease, finished));
        args.addAll(claimArgs(tokens));
        List<?> reply = (List<?>) redis.once("complete", deadline,
                () -> ConveyorScripts.COMPLETE_AND_CLAIM.run(redis.jedis(), keyList, args));
        if (reply.size() == 1) {
            if ((Long) reply.get(0) == 0L) {
                throw new LeaseLostException(lease.uuid());
            }
            finishByTreeScript(deadline, "complete", lease, finished); // not a simple end after all: finish.lua
            return claimMany(deadline, queue, n);
        }
        return leases(reply, tokens);
    }

    /**
     * Completes every lease: the simple ends (no parent, no children, no successors) in one script, the others one
     * finish.lua each (with scripts), or the WATCH/MULTI form (OPTIMISTIC). @return the leases that were no longer the caller's (nothing written for them)
     */
    List<Lease> completeAll(Deadline deadline, List<Lease> leases) {
        List<Lease> lost = new ArrayList<>();
        List<Lease> simple = new ArrayList<>();
        for (Lease lease : leases) {
            if (options.scripted() && !lease.job().hasParent()) {
                simple.add(lease);
            } else {
                completeKeepingLost(deadline, lease, lost);
            }
        }
        if (simple.size() <= 1) {
            simple.forEach(lease -> completeKeepingLost(deadline, lease, lost)); // the loop-free complete.lua
            return lost;
        }
        List<byte[]> keyList = new ArrayList<>();
        List<byte[]> args = new ArrayList<>();
        for (Lease lease : simple) {
            Job finished = lease.job().finished(JobStatus.COMPLETED, lease.job().lastFailure());
            keyList.addAll(completeKeys(finished));
            args.addAll(completeArgs(lease, finished));
        }
        List<?> codes = (List<?>) redis.once("complete", deadline,
                () -> ConveyorScripts.COMPLETE_MANY.run(redis.jedis(), keyList, args));
        for (int i = 0; i < simple.size(); i++) {
            long code = (Long) codes.get(i);
            Lease lease = simple.get(i);
            if (code == 0L) {
                lost.add(lease);
            } else if (code == 2L) {
                try {
                    finishByTreeScript(deadline, "complete", lease,
                            lease.job().finished(JobStatus.COMPLETED, lease.job().lastFailure()));
                } catch (LeaseLostException e) {
                    lost.add(lease);
                }
            }
        }
        return lost;
    }

    private void completeKeepingLost(Deadline deadline, Lease lease, List<Lease> lost) {
        try {
            complete(deadline, lease);
        } catch (LeaseLostException e) {
            lost.add(lease);
        }
    }

    private static List<String> tokens(int n) {
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tokens.add(UUID.randomUUID().toString());
        }
        return tokens;
    }

    private List<byte[]> claimKeys(String queue) {
        return List.of(keys.queue(queue), keys.leases(), keys.deadLetters());
    }

    private List<byte[]> claimArgs(List<String> tokens) {
        List<byte[]> args = new ArrayList<>();
        args.add(Placement.utf8(keys.prefix()));
        args.add(Placement.utf8(ServerTime.argument(clock)));
        args.add(Placement.utf8(Long.toString(options.lease().toMillis())));
        tokens.forEach(t -> args.add(Placement.utf8(t)));
        return args;
    }

    private static List<Lease> leases(Object reply, List<String> tokens) {
        List<?> parts = (List<?>) reply;
        Instant expires = Instant.ofEpochMilli((Long) parts.get(0));
        List<?> records = (List<?>) parts.get(1);
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            leases.add(new Lease(JobWire.decode((byte[]) records.get(i)), tokens.get(i), expires));
        }
        return leases;
    }

    private List<byte[]> completeKeys(Job finished) {
        String uuid = finished.uuid();
        return List.of(keys.lease(uuid), keys.leases(), keys.job(uuid), keys.children(uuid), keys.active(uuid),
                keys.onComplete(uuid), keys.waiting(),
                finished.status() == JobStatus.COMPLETED ? keys.done() : keys.failed());
    }

    private static List<byte[]> completeArgs(Lease lease, Job finished) {
        return List.of(Placement.utf8(lease.uuid()), Placement.utf8(lease.token()), JobWire.encode(finished));
    }

    /**
     * The loop-free scripted end of a job without parent (complete.lua): true when it ended there (children, active
     * children or successors send it to finish.lua: false, nothing written).
     */
    private boolean finishedByScript(Deadline deadline, Lease lease, Job finished) {
        if (!options.scripted() || finished.hasParent()) {
            return false;
        }
        Long code = (Long) redis.once("complete", deadline, () -> ConveyorScripts.COMPLETE.run(redis.jedis(),
                completeKeys(finished), completeArgs(lease, finished)));
        if (code == 0L) {
            throw new LeaseLostException(lease.uuid());
        }
        return code == 1L;
    }

    /** The fenced hand-back script: to the queue's claiming end (due null) or to scheduled at {@code due}. */
    private void releaseByScript(Deadline deadline, Lease lease, Job record, Instant due) {
        String queue = record.queue();
        List<byte[]> keyList = List.of(keys.lease(lease.uuid()), keys.leases(), keys.job(lease.uuid()),
                due == null ? keys.queue(queue) : keys.scheduled(), keys.wake(queue));
        List<byte[]> args = List.of(Placement.utf8(lease.uuid()), Placement.utf8(lease.token()),
                JobWire.encode(record), Placement.utf8(queue),
                Placement.utf8(due == null ? "" : scoreText(Placement.epochSeconds(due))),
                Placement.utf8(keys.wakeCommand()));
        Long code = (Long) redis.once("release", deadline,
                () -> ConveyorScripts.RELEASE.run(redis.jedis(), keyList, args));
        if (code == 0L) {
            throw new LeaseLostException(lease.uuid());
        }
    }

    /** A score as Jedis would send it, so scripted and optimistic writes store the same double. */
    static String scoreText(double score) {
        return new String(Protocol.toByteArray(score), java.nio.charset.StandardCharsets.UTF_8);
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
        if (options.scripted()) {
            releaseByScript(deadline, lease, retried, retried.runAt());
            return;
        }
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
        if (options.scripted()) {
            releaseByScript(deadline, lease, requeued, null);
            return;
        }
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
        if (options.scripted()) {
            List<byte[]> args = List.of(Placement.utf8(lease.uuid()), Placement.utf8(lease.token()),
                    Placement.utf8(ServerTime.argument(clock)), Placement.utf8(Long.toString(options.lease().toMillis())));
            Long expiry = (Long) redis.once("extend", deadline, () -> ConveyorScripts.EXTEND.run(redis.jedis(),
                    List.of(keys.lease(lease.uuid()), keys.leases()), args));
            if (expiry == null) {
                throw new LeaseLostException(lease.uuid());
            }
            return new Lease(lease.job(), lease.token(), Instant.ofEpochMilli(expiry));
        }
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
        if (options.scripted()) {
            if (!finishedByScript(deadline, lease, finished)) {
                finishByTreeScript(deadline, operation, lease, finished);
            }
            return;
        }
        Optional<String> parent = redis.run(operation, deadline, () -> {
            fence(lease);
            Plan plan = new Plan();
            String toSettle = finisher.planFinish(finished, plan);
            return plan.exec(redis.jedis()) == null ? null : Optional.ofNullable(toSettle);
        });
        parent.ifPresent(p -> settle(deadline, finished.uuid(), p));
    }

    /**
     * finish.lua: the end of any job's run in one script, its children released, and its parents settled up to
     * {@link #SETTLE_PER_CALL} of them; a longer climb goes on in settle.lua calls of the same size.
     */
    private void finishByTreeScript(Deadline deadline, String operation, Lease lease, Job finished) {
        List<?> reply = (List<?>) redis.once(operation, deadline,
                () -> ConveyorScripts.FINISH.run(redis.jedis(), finishKeys(finished), finishArgs(lease, finished)));
        afterFinish(deadline, lease, reply);
    }

    /** finish.lua and, when the job's end and its climb ended in it, claim.lua: one call for a child's end and the next. */
    private List<Lease> finishAndClaim(Deadline deadline, Lease lease, Job finished, String queue, int n) {
        List<String> tokens = tokens(n);
        List<byte[]> keyList = finishKeys(finished);
        keyList.addAll(claimKeys(queue));
        List<byte[]> args = finishArgs(lease, finished);
        args.addAll(claimArgs(tokens));
        List<?> reply = (List<?>) redis.once("complete", deadline,
                () -> ConveyorScripts.FINISH_AND_CLAIM.run(redis.jedis(), keyList, args));
        if (reply.size() == 2 && reply.get(1) instanceof List) {
            return leases(reply, tokens);
        }
        afterFinish(deadline, lease, reply); // lost, or a climb to go on with: no claim was made
        return claimMany(deadline, queue, n);
    }

    /** finish.lua's reply: a lost lease raised, a climb the budget cut short settled on. */
    private void afterFinish(Deadline deadline, Lease lease, List<?> reply) {
        if ((Long) reply.get(0) == 0L) {
            throw new LeaseLostException(lease.uuid());
        }
        if (reply.size() == 3) {
            settleByScript(deadline, text(reply.get(1)), text(reply.get(2)));
        }
    }

    private List<byte[]> finishKeys(Job finished) {
        List<byte[]> keyList = new ArrayList<>(completeKeys(finished));
        keyList.add(keys.settling());
        return keyList;
    }

    private List<byte[]> finishArgs(Lease lease, Job finished) {
        List<byte[]> args = new ArrayList<>(completeArgs(lease, finished));
        args.add(Placement.utf8(keys.prefix()));
        args.add(Placement.utf8(ServerTime.argument(clock)));
        args.add(Placement.utf8(keys.wakeCommand()));
        args.add(Placement.utf8(finished.parentUuid()));
        args.add(Placement.utf8(Integer.toString(SETTLE_PER_CALL)));
        return args;
    }

    /** settle.lua from {@code child} (its parent given, or "" to read it from the child's record) until the climb ends. */
    private void settleByScript(Deadline deadline, String child, String parent) {
        List<?> left = List.of(child, parent);
        while (!left.isEmpty()) {
            List<byte[]> args = List.of(Placement.utf8(keys.prefix()), Placement.utf8(ServerTime.argument(clock)),
                    Placement.utf8(keys.wakeCommand()), Placement.utf8(Integer.toString(SETTLE_PER_CALL)),
                    Placement.utf8(text(left.get(0))), Placement.utf8(text(left.get(1))));
            left = (List<?>) redis.once("settle", deadline,
                    () -> ConveyorScripts.SETTLE.run(redis.jedis(), List.of(), args));
        }
    }

    private static String text(Object part) {
        return part instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                : (String) part;
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
            if (options.scripted()) {
                settleByScript(deadline, child, ""); // the script reads the child's parent from its record
                continue;
            }
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
