package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

/**
 * Gives jobs whose lease expired back to their queue (the worker died or stalled). Each job is moved in its own
 * transaction watching its lease key, so a job whose owner finished or extended in the meantime is left alone,
 * and the old owner's token is deleted so it can no longer finish the job. Recovery does not consume a retry:
 * the job did not fail, its worker went away (documented in docs/contracts/conveyor.md).
 */
final class LeaseRecovery {
    private static final int BATCH = 100;

    private final Optimistic redis;
    private final ConveyorKeys keys;
    private final InstantSource clock;
    private final boolean scripted;

    LeaseRecovery(Optimistic redis, ConveyorKeys keys, InstantSource clock, boolean scripted) {
        this.redis = redis;
        this.keys = keys;
        this.clock = clock;
        this.scripted = scripted;
    }

    int recoverExpired(Deadline deadline) {
        if (scripted) {
            return recoverByScript(deadline);
        }
        int recovered = 0;
        while (true) {
            long now = clock.instant().toEpochMilli();
            List<byte[]> expired = redis.once("recover", deadline,
                    () -> redis.jedis().zrangeByScore(keys.leases(), Double.NEGATIVE_INFINITY, now, 0, BATCH));
            int before = recovered;
            for (byte[] id : expired) {
                String uuid = new String(id, java.nio.charset.StandardCharsets.UTF_8);
                if (redis.run("recover", deadline, () -> tryRecover(uuid))) {
                    recovered++;
                }
            }
            if (expired.size() < BATCH || recovered == before) {
                return recovered;
            }
        }
    }

    /**
     * The same, a batch per script (recover.lua), the expiry compared with the script's time: Redis's TIME in
     * production, so a lease is never judged on one host's view of the time and written on another's.
     */
    private int recoverByScript(Deadline deadline) {
        int recovered = 0;
        while (true) {
            List<byte[]> args = List.of(Placement.utf8(keys.prefix()),
                    Placement.utf8(dev.redsim.queue.time.ServerTime.argument(clock)),
                    Placement.utf8(Integer.toString(BATCH)), Placement.utf8(keys.wakeCommand()));
            List<?> reply = redis.once("recover", deadline, () -> (List<?>) ConveyorScripts.RECOVER.run(redis.jedis(),
                    List.of(keys.leases(), keys.deadLetters()), args));
            long requeued = (Long) reply.get(0);
            recovered += (int) requeued;
            if ((Long) reply.get(1) < BATCH || requeued == 0) {
                return recovered;
            }
        }
    }

    private Boolean tryRecover(String uuid) {
        Jedis jedis = redis.jedis();
        jedis.watch(keys.lease(uuid), keys.job(uuid));
        Double expiry = jedis.zscore(keys.leases(), Placement.utf8(uuid));
        byte[] record = jedis.get(keys.job(uuid));
        if (expiry == null || expiry > clock.instant().toEpochMilli() || record == null) {
            jedis.unwatch();
            return false;
        }
        Job requeued = JobWire.decode(record).requeued();
        byte[] bytes = JobWire.encode(requeued);
        Plan plan = new Plan()
                .then(tx -> tx.zrem(keys.leases(), Placement.utf8(uuid)))
                .then(tx -> tx.del(keys.lease(uuid)))
                .then(tx -> tx.set(keys.job(uuid), bytes))
                .then(tx -> tx.lpush(keys.queue(requeued.queue()), bytes));
        Placement.wake(plan, keys, requeued.queue());
        return plan.exec(jedis) == null ? null : true;
    }
}
