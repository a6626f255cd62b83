package dev.redsim.queue.conveyor;

import dev.redsim.queue.time.ServerTime;
import redis.clients.jedis.Jedis;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The spec's Add: buffer under a live parent, wait behind an unfinished predecessor, or place the job (schedule
 * or LPUSH, recording it in a dead parent's active set). One script (add.lua, by default) or one WATCH/MULTI/EXEC
 * (OPTIMISTIC), so the check of the parent's or predecessor's state and the write cannot be separated by their
 * completion (which would strand the job). A batch is one script, all or nothing when a uuid is taken.
 */
final class Adder {
    private final Optimistic redis;
    private final ConveyorKeys keys;
    private final Placement placement;
    private final InstantSource clock;
    private final boolean scripted;

    Adder(Optimistic redis, ConveyorKeys keys, Placement placement, InstantSource clock, boolean scripted) {
        this.redis = redis;
        this.keys = keys;
        this.placement = placement;
        this.clock = clock;
        this.scripted = scripted;
    }

    List<Job> addAll(Deadline deadline, List<Job> jobs) {
        List<Job> ready = new ArrayList<>();
        Set<String> uuids = new HashSet<>();
        for (Job job : jobs) {
            Job valid = validated(job);
            if (!uuids.add(valid.uuid())) {
                throw new DuplicateJobException(valid.uuid());
            }
            ready.add(valid);
        }
        if (scripted) {
            addByScript(deadline, ready, false); // one script for the batch, in order, as the adds one by one
            return ready;
        }
        for (Job job : ready) {
            byte[] bytes = JobWire.encode(job);
            redis.run("add", deadline, () -> attempt(job, bytes, false) ? Boolean.TRUE : null);
        }
        return ready;
    }

    /** add.lua: the jobs in order, all or none when a uuid is taken. */
    private void addByScript(Deadline deadline, List<Job> jobs, boolean deadParent) {
        List<byte[]> args = new ArrayList<>();
        args.add(Placement.utf8(keys.prefix()));
        args.add(Placement.utf8(ServerTime.argument(clock)));
        args.add(Placement.utf8(keys.wakeCommand()));
        args.add(Placement.utf8(deadParent ? "1" : "0"));
        for (Job job : jobs) {
            args.add(Placement.utf8(job.uuid()));
            args.add(JobWire.encode(job));
            args.add(Placement.utf8(job.queue()));
            Instant runAt = job.runAt();
            args.add(Placement.utf8(runAt == null ? ""
                    : java.math.BigDecimal.valueOf(runAt.getEpochSecond()).movePointRight(3)
                        .add(java.math.BigDecimal.valueOf(runAt.getNano()).movePointLeft(6)).toPlainString()));
            args.add(Placement.utf8(runAt == null ? "" : Worker.scoreText(Placement.epochSeconds(runAt))));
            args.add(Placement.utf8(job.parentUuid()));
            args.add(Placement.utf8(job.predecessorUuid()));
        }
        byte[] taken = (byte[]) redis.once("add", deadline, () -> ConveyorScripts.ADD.run(redis.jedis(), List.of(), args));
        if (taken != null) {
            throw new DuplicateJobException(new String(taken, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    Job add(Deadline deadline, Job job, boolean deadParent) {
        Job ready = validated(job);
        if (scripted) {
            addByScript(deadline, List.of(ready), deadParent);
            return ready;
        }
        byte[] bytes = JobWire.encode(ready);
        redis.run("add", deadline, () -> attempt(ready, bytes, deadParent) ? Boolean.TRUE : null);
        return ready;
    }

    private Job validated(Job job) {
        if (job == null) {
            throw new InvalidJobException("job is null");
        }
        if (job.queue().isEmpty()) {
            throw new InvalidJobException("queue is empty");
        }
        if (job.maxRetries() < 0) {
            throw new InvalidJobException("max_retries is negative");
        }
        Job withId = job.uuid().isEmpty() ? job.withUuid(UUID.randomUUID().toString()) : job;
        if (withId.uuid().equals(withId.parentUuid()) || withId.uuid().equals(withId.predecessorUuid())) {
            throw new InvalidJobException("a job cannot be its own parent or predecessor");
        }
        return withId;
    }

    private boolean attempt(Job job, byte[] bytes, boolean deadParent) {
        Jedis jedis = redis.jedis();
        // One copy per uuid: the record written below is the mark that the uuid is taken.
        jedis.watch(keys.job(job.uuid()));
        if (jedis.exists(keys.job(job.uuid()))) {
            jedis.unwatch();
            throw new DuplicateJobException(job.uuid());
        }
        Plan plan = new Plan().then(tx -> tx.set(keys.job(job.uuid()), bytes));
        boolean parentDead = deadParent;
        if (job.hasParent() && !deadParent) {
            // A parent that already finished running released its children: buffering now would strand the job.
            jedis.watch(keys.job(job.parentUuid()));
            parentDead = finishedRunning(jedis.get(keys.job(job.parentUuid())));
        }
        if (job.hasParent() && !parentDead) {
            plan.then(tx -> tx.rpush(keys.children(job.parentUuid()), bytes));
        } else if (job.hasPredecessor() && !parentDead && !predecessorFinal(jedis, job.predecessorUuid())) {
            plan.then(tx -> tx.rpush(keys.onComplete(job.predecessorUuid()), bytes));
        } else {
            placement.place(plan, job, bytes, clock.instant());
        }
        return plan.exec(jedis) != null;
    }

    private static boolean finishedRunning(byte[] record) {
        return record != null && JobWire.decode(record).status().finished();
    }

    /** Final = its onComplete list was released; every such transition rewrites jobs:<uuid>, which we watch. */
    private boolean predecessorFinal(Jedis jedis, String predecessor) {
        jedis.watch(keys.job(predecessor));
        byte[] id = Placement.utf8(predecessor);
        return jedis.sismember(keys.done(), id) || jedis.sismember(keys.failed(), id);
    }
}
