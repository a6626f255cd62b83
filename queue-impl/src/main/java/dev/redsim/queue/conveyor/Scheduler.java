package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;

import java.time.InstantSource;
import java.util.List;

/**
 * Moves due jobs from `scheduled` to their queues. Every worker may run it at the same time: the read of the due
 * jobs and their ZREM + LPUSH form one WATCH/MULTI/EXEC on `scheduled`, so a job is moved by exactly one runner
 * (upstream ignored ZREM's result and could enqueue a job twice).
 */
final class Scheduler {
    private static final int BATCH = 100;

    private final Optimistic redis;
    private final ConveyorKeys keys;
    private final InstantSource clock;
    private final boolean scripted;

    Scheduler(Optimistic redis, ConveyorKeys keys, InstantSource clock, boolean scripted) {
        this.redis = redis;
        this.keys = keys;
        this.clock = clock;
        this.scripted = scripted;
    }

    /** @return how many jobs this call moved */
    int moveDue(Deadline deadline) {
        int moved = 0;
        while (true) {
            int batch = scripted ? moveByScript(deadline) : redis.run("schedule", deadline, this::moveBatch);
            moved += batch;
            if (batch < BATCH) {
                return moved;
            }
        }
    }

    /** schedule.lua: a batch in one script, due measured on the script's time (TIME in production). */
    private int moveByScript(Deadline deadline) {
        List<byte[]> args = List.of(Placement.utf8(keys.prefix()),
                Placement.utf8(dev.redsim.queue.time.ServerTime.argument(clock)), Placement.utf8(Integer.toString(BATCH)),
                Placement.utf8(keys.wakeCommand()));
        Long moved = (Long) redis.once("schedule", deadline, () -> ConveyorScripts.SCHEDULE.run(redis.jedis(),
                List.of(keys.scheduled(), keys.deadLetters()), args));
        return moved.intValue();
    }

    private static String queueOf(byte[] job) {
        try {
            return JobWire.decode(job).queue();
        } catch (MarshalException e) {
            return null;
        }
    }

    private Integer moveBatch() {
        Jedis jedis = redis.jedis();
        jedis.watch(keys.scheduled());
        double now = Placement.epochSeconds(clock.instant());
        List<byte[]> due = jedis.zrangeByScore(keys.scheduled(), Double.NEGATIVE_INFINITY, now, 0, BATCH);
        if (due.isEmpty()) {
            jedis.unwatch();
            return 0;
        }
        Plan plan = new Plan();
        for (byte[] job : due) {
            plan.then(tx -> tx.zrem(keys.scheduled(), job));
            String queue = queueOf(job);
            // Bytes that do not decode have no queue: they go to the dead letters instead of blocking the batch.
            plan.then(tx -> tx.lpush(queue == null ? keys.deadLetters() : keys.queue(queue), job));
            if (queue != null) {
                Placement.wake(plan, keys, queue);
            }
        }
        return plan.exec(jedis) == null ? null : due.size();
    }
}
