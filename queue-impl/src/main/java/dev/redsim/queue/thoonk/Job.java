package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A job queue: a job is available (feed.ids list), claimed (feed.claimed zset, score = claim time in ms) or
 * stalled (feed.stalled set); its item stays in feed.items until it is finished or retracted. Each transition is
 * the contract's WATCH/MULTI loop. One instance per connection (Jedis is not thread-safe).
 */
public final class Job {
    private final Jedis jedis;
    private final ThoonkKeys keys;
    private final Clock clock;

    public Job(Jedis jedis, String feed, Clock clock) {
        this.jedis = jedis;
        this.keys = new ThoonkKeys(feed);
        this.clock = clock;
    }

    public ThoonkKeys keys() {
        return keys;
    }

    public String put(String item) {
        return put(item, false);
    }

    public String putHighPriority(String item) {
        return put(item, true);
    }

    // Both priorities INCR feed.publishes (the contract's high priority put omits it: a typo, see the doc).
    private String put(String item, boolean high) {
        String id = UUID.randomUUID().toString();
        var tx = jedis.multi();
        if (high) {
            tx.rpush(keys.ids(), id);
        } else {
            tx.lpush(keys.ids(), id);
        }
        tx.incr(keys.publishes());
        tx.hset(keys.items(), id, item);
        tx.zadd(keys.published(), clock.millis(), id);
        tx.exec();
        return id;
    }

    /**
     * BRPOP then claim, as the contract: a crash between the two leaves the id only in feed.items, where
     * maintenance finds it. A timeout under a millisecond (zero included) does not wait.
     * @return the claim, or null on timeout (or when the job was retracted meanwhile)
     */
    public Claim get(Duration timeout) {
        String id = TailPop.pop(jedis, keys.ids(), timeout);
        if (id == null) {
            return null;
        }
        long now = clock.millis();
        // WATCH feed.items so that a job retracted between the pop and the claim is not claimed (a claimed id
        // without an item would break conservation); the contract's plain MULTI would claim it. WATCH feed.claimed
        // and give the id up when someone claims it: a worker slow between its pop and its claim can find that
        // maintenance took the id back meanwhile (unaccounted for longer than the claim timeout) and another worker
        // popped and claimed it; claiming it too would run the job twice inside that worker's lease.
        List<Object> replies = Watched.run(jedis, new String[] {keys.items(), keys.claimed()},
            j -> j.hexists(keys.items(), id) && j.zscore(keys.claimed(), id) == null, tx -> {
                tx.zadd(keys.claimed(), now, id);
                tx.hget(keys.items(), id);
            });
        return replies == null ? null : new Claim(id, (String) replies.get(1), now);
    }

    /** Finishes a claimed job, publishing the result on job.finish when there is one. Fenced by the claim. */
    public boolean finish(Claim claim, String result) {
        return finish(claim.id(), (double) claim.claimedAt(), result);
    }

    /** The contract's unfenced finish: whoever claimed the id. */
    public boolean finish(String id, String result) {
        return finish(id, null, result);
    }

    private boolean finish(String id, Double claimedAt, String result) {
        return Watched.run(jedis, new String[] {keys.claimed()}, j -> claimedAt(j, id, claimedAt), tx -> {
            tx.zrem(keys.claimed(), id);
            tx.hdel(keys.cancelled(), id);
            tx.incr(keys.finishes());
            if (result != null) {
                tx.publish(keys.finishChannel(), ThoonkKeys.payload(id, result));
            }
            tx.hdel(keys.items(), id);
            // Not in the contract: without it feed.published keeps every finished id forever.
            tx.zrem(keys.published(), id);
        }) != null;
    }

    /**
     * Renews a claim (the worker runtime's heartbeat): the claim's score, which maintenance measures the claim
     * timeout from, becomes now. The score is also the fencing token, so the renewed claim is returned and the
     * old one is stale from then on. Not in the contract (it has no lease renewal); it writes only the contract's
     * feed.claimed.
     * @return the renewed claim, or null when the job is no longer claimed with this claim's token
     */
    public Claim extend(Claim claim) {
        long now = clock.millis();
        if (now <= claim.claimedAt()) {
            return claimedAt(jedis, claim.id(), (double) claim.claimedAt()) ? claim : null;
        }
        return Watched.run(jedis, new String[] {keys.claimed()},
            j -> claimedAt(j, claim.id(), (double) claim.claimedAt()),
            tx -> tx.zadd(keys.claimed(), now, claim.id())) == null ? null
            : new Claim(claim.id(), claim.item(), now);
    }

    /**
     * Hands a claimed job back without counting a failure (a worker stopping before it ran the job): RPUSH, so it
     * is the next one taken, as it was. Not in the contract (whose Cancel counts a failure). Fenced by the claim.
     */
    public boolean release(Claim claim) {
        return Watched.run(jedis, new String[] {keys.claimed()},
            j -> claimedAt(j, claim.id(), (double) claim.claimedAt()), tx -> {
                tx.rpush(keys.ids(), claim.id());
                tx.zrem(keys.claimed(), claim.id());
            }) != null;
    }

    /** Puts a claimed job back in line and counts a failure. Fenced by the claim. */
    public boolean cancel(Claim claim) {
        return cancel(claim.id(), (double) claim.claimedAt());
    }

    public boolean cancel(String id) {
        return cancel(id, null);
    }

    boolean cancel(String id, Double claimedAt) {
        return Watched.run(jedis, new String[] {keys.claimed()}, j -> claimedAt(j, id, claimedAt), tx -> {
            tx.hincrBy(keys.cancelled(), id, 1);
            tx.lpush(keys.ids(), id);
            tx.zrem(keys.claimed(), id);
        }) != null;
    }

    /** Takes a claimed job out of the running without deleting it. Fenced by the claim. */
    public boolean stall(Claim claim) {
        return stall(claim.id(), (double) claim.claimedAt());
    }

    public boolean stall(String id) {
        return stall(id, null);
    }

    boolean stall(String id, Double claimedAt) {
        return Watched.run(jedis, new String[] {keys.claimed()}, j -> claimedAt(j, id, claimedAt), tx -> {
            tx.zrem(keys.claimed(), id);
            tx.hdel(keys.cancelled(), id);
            tx.sadd(keys.stalled(), id);
            tx.zrem(keys.published(), id);
        }) != null;
    }

    /** Puts a stalled job back in line. */
    public boolean retry(String id) {
        return Watched.run(jedis, new String[] {keys.stalled()}, j -> j.sismember(keys.stalled(), id), tx -> {
            tx.srem(keys.stalled(), id);
            tx.lpush(keys.ids(), id);
            tx.zadd(keys.published(), clock.millis(), id);
        }) != null;
    }

    /** Removes a job wherever it is. */
    public boolean retract(String id) {
        return Watched.run(jedis, new String[] {keys.items()}, j -> j.hexists(keys.items(), id), tx -> {
            tx.hdel(keys.items(), id);
            tx.hdel(keys.cancelled(), id);
            tx.zrem(keys.published(), id);
            tx.srem(keys.stalled(), id);
            tx.zrem(keys.claimed(), id);
            tx.lrem(keys.ids(), 1, id);
        }) != null;
    }

    /** How many times the job was cancelled (by a worker or by maintenance) since it last stalled or finished. */
    public long failures(String id) {
        String count = jedis.hget(keys.cancelled(), id);
        return count == null ? 0 : Long.parseLong(count);
    }

    public Set<String> ids() {
        return Set.copyOf(jedis.hkeys(keys.items()));
    }

    /** True when the id is claimed, and (when fenced) with exactly the given claim time. Runs under WATCH. */
    private boolean claimedAt(Jedis j, String id, Double expected) {
        Double score = j.zscore(keys.claimed(), id);
        return score != null && (expected == null || score.doubleValue() == expected.doubleValue());
    }
}
