package dev.redsim.queue.thoonk;

import dev.redsim.queue.script.LuaScript;
import dev.redsim.queue.script.Transitions;
import dev.redsim.queue.time.ServerTime;
import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A job queue: a job is available (feed.ids list), claimed (feed.claimed zset, score = claim time in ms) or
 * stalled (feed.stalled set); its item stays in feed.items until it is finished or retracted. Each transition is
 * one Lua script (resources/thoonk/scripts, the contract's commands on the contract's keys, the same events) or,
 * with {@link Transitions#OPTIMISTIC}, the contract's WATCH/MULTI loop. Scripted, a get pops and claims in one step
 * (no window in which a crash loses the id) unless it has to wait: then BRPOP, and the popped id is claimed by the
 * same script. Times come from Redis's TIME in the script when the clock is a RedisClock. One instance per
 * connection (Jedis is not thread-safe).
 */
public final class Job {
    private static final String DIR = "/thoonk/scripts/";
    private static final LuaScript PUT = LuaScript.of(DIR + "put.lua");
    private static final LuaScript PUT_ONE = LuaScript.of(DIR + "put_one.lua");
    private static final LuaScript GET = LuaScript.of(DIR + "claims.lua", DIR + "get.lua");
    private static final LuaScript GET_ONE = LuaScript.of(DIR + "get_one.lua");
    private static final LuaScript FINISH = LuaScript.of(DIR + "claims.lua", DIR + "finish.lua");
    private static final LuaScript FINISH_GET = LuaScript.of(DIR + "claims.lua", DIR + "finish_get.lua");
    /** The most claims one finish.lua call takes. */
    private static final int FINISH_BATCH = 1_000;
    private static final LuaScript FINISH_ONE = LuaScript.of(DIR + "finish_one.lua");
    private static final LuaScript EXTEND = LuaScript.of(DIR + "extend.lua");
    private static final LuaScript RELEASE = LuaScript.of(DIR + "release.lua");
    private static final LuaScript CANCEL = LuaScript.of(DIR + "cancel.lua");
    private static final LuaScript STALL = LuaScript.of(DIR + "stall.lua");
    private static final LuaScript RETRY = LuaScript.of(DIR + "retry.lua");
    private static final LuaScript RETRACT = LuaScript.of(DIR + "retract.lua");
    private static final LuaScript REQUEUE = LuaScript.of(DIR + "requeue.lua");

    private final Jedis jedis;
    private final ThoonkKeys keys;
    private final Clock clock;
    private final boolean scripted;

    /** Scripted transitions (the default). */
    public Job(Jedis jedis, String feed, Clock clock) {
        this(jedis, feed, clock, Transitions.SCRIPTS);
    }

    public Job(Jedis jedis, String feed, Clock clock, Transitions transitions) {
        this.jedis = jedis;
        this.keys = new ThoonkKeys(feed);
        this.clock = clock;
        this.scripted = transitions == Transitions.SCRIPTS;
    }

    private Object script(LuaScript script, List<String> keyList, List<String> args) {
        return script.run(jedis, utf8(keyList), utf8(args));
    }

    private static List<byte[]> utf8(List<String> strings) {
        List<byte[]> out = new ArrayList<>(strings.size());
        for (String s : strings) {
            out.add(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return out;
    }

    private static String text(Object reply) {
        return reply == null ? null : new String((byte[]) reply, java.nio.charset.StandardCharsets.UTF_8);
    }

    private String now() {
        return ServerTime.argument(clock);
    }

    private static String fence(Double claimedAt) {
        return claimedAt == null ? "" : Long.toString(claimedAt.longValue());
    }

    /** Puts every item (normal priority) in one script; the ids in order. */
    public List<String> putAll(List<String> items) {
        List<String> ids = new ArrayList<>();
        if (!scripted) {
            for (String item : items) {
                ids.add(put(item));
            }
            return ids;
        }
        if (items.size() == 1) {
            return List.of(put(items.get(0))); // the loop-free script: the simulator runs it on its engine thread
        }
        List<String> args = new ArrayList<>(List.of(now(), "LPUSH"));
        for (String item : items) {
            String id = UUID.randomUUID().toString();
            ids.add(id);
            args.add(id);
            args.add(item);
        }
        if (!ids.isEmpty()) {
            script(PUT, List.of(keys.ids(), keys.publishes(), keys.items(), keys.published()), args);
        }
        return ids;
    }

    /**
     * Claims up to {@code n} jobs: as many as are waiting, in one script; when none is, waits up to {@code timeout}
     * for one (BRPOP, as get).
     */
    public List<Claim> getMany(int n, Duration timeout) {
        List<Claim> claims = new ArrayList<>();
        if (!scripted) {
            for (Claim c = get(timeout); c != null; c = claims.size() < n ? get(Duration.ZERO) : null) {
                claims.add(c);
                if (claims.size() == n) {
                    break;
                }
            }
            return claims;
        }
        if (n == 1) {
            Claim one = get(timeout); // the loop-free script
            return one == null ? claims : List.of(one);
        }
        List<?> reply = (List<?>) script(GET, List.of(keys.ids(), keys.items(), keys.claimed()),
            List.of(now(), Integer.toString(n), ""));
        long at = (Long) reply.get(0);
        for (int i = 1; i + 1 < reply.size(); i += 2) {
            claims.add(new Claim(text(reply.get(i)), text(reply.get(i + 1)), at));
        }
        if (claims.isEmpty() && n > 0) {
            Claim waited = waitAndClaim(timeout, id -> { });
            if (waited != null) {
                claims.add(waited);
            }
        }
        return claims;
    }

    /** Finishes each claim (fenced) in one script; for each, whether it was finished. */
    public List<Boolean> finishAll(List<Claim> claims, String result) {
        List<Boolean> finished = new ArrayList<>();
        if (!scripted) {
            for (Claim claim : claims) {
                finished.add(finish(claim, result));
            }
            return finished;
        }
        if (claims.isEmpty()) {
            return finished;
        }
        if (claims.size() == 1) {
            return List.of(finish(claims.get(0), result)); // the loop-free script
        }
        if (claims.size() > FINISH_BATCH) {
            // finish.lua writes each key once for all its claims (one argument list): bounded, as Lua's stack is
            for (int from = 0; from < claims.size(); from += FINISH_BATCH) {
                List<Claim> part = claims.subList(from, Math.min(from + FINISH_BATCH, claims.size()));
                finished.addAll(finishAll(part, result));
            }
            return finished;
        }
        List<String> args = new ArrayList<>(List.of(keys.finishChannel()));
        for (Claim claim : claims) {
            args.add(claim.id());
            args.add(Long.toString(claim.claimedAt()));
            args.add(result == null ? "" : ThoonkKeys.payload(claim.id(), result));
        }
        List<?> reply = (List<?>) script(FINISH, List.of(keys.claimed(), keys.cancelled(), keys.finishes(),
            keys.items(), keys.published()), args);
        for (Object code : reply) {
            finished.add((Long) code == 1L);
        }
        return finished;
    }

    /**
     * Complete-and-claim-next: finishes every claim (fenced, as {@link #finishAll}) and claims up to {@code n} next
     * jobs, in one script (one round trip), leaving the keys and events of finishAll then getMany. When no job is
     * waiting it waits up to {@code timeout} for one, as getMany does. WATCH/MULTI (or more than 1,000 claims): the
     * two calls one after the other.
     */
    public FinishedAndClaimed finishAndGet(List<Claim> claims, String result, int n, Duration timeout) {
        if (!scripted || claims.size() > FINISH_BATCH) {
            List<Boolean> finished = finishAll(claims, result);
            return new FinishedAndClaimed(finished, n > 0 ? getMany(n, timeout) : List.of());
        }
        List<String> args = new ArrayList<>(List.of(now(), Integer.toString(n), keys.finishChannel()));
        for (Claim claim : claims) {
            args.add(claim.id());
            args.add(Long.toString(claim.claimedAt()));
            args.add(result == null ? "" : ThoonkKeys.payload(claim.id(), result));
        }
        List<?> reply = (List<?>) script(FINISH_GET, List.of(keys.claimed(), keys.cancelled(), keys.finishes(),
            keys.items(), keys.published(), keys.ids()), args);
        long at = (Long) reply.get(0);
        List<Boolean> finished = new ArrayList<>();
        for (Object code : (List<?>) reply.get(1)) {
            finished.add((Long) code == 1L);
        }
        List<Claim> next = new ArrayList<>();
        List<?> pairs = (List<?>) reply.get(2);
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
            next.add(new Claim(text(pairs.get(i)), text(pairs.get(i + 1)), at));
        }
        if (next.isEmpty() && n > 0) {
            Claim waited = waitAndClaim(timeout, id -> { });
            if (waited != null) {
                next.add(waited);
            }
        }
        return new FinishedAndClaimed(finished, next);
    }

    /** The blocking half of a scripted get: BRPOP (or nothing under a millisecond), then the script claims the id. */
    private Claim waitAndClaim(Duration timeout, Consumer<String> popped) {
        if (timeout.isNegative() || timeout.toMillis() == 0) {
            return null;
        }
        return claimPopped(TailPop.pop(jedis, keys.ids(), timeout), popped);
    }

    /** Tells {@code popped} of an id BRPOP took, then claims it; null for none. */
    private Claim claimPopped(String id, Consumer<String> popped) {
        if (id == null) {
            return null;
        }
        popped.accept(id);
        return claimPopped(id);
    }

    /**
     * Claims an id a get popped with BRPOP (the second half of {@link #get}), for a caller whose get failed between the
     * two (it learnt the id from {@link #get(Duration, Consumer)}) and that reaches the feed again: on a cluster, the
     * master that serves the feed now. Null when the job was retracted or someone claimed it meanwhile.
     */
    public Claim claimPopped(String id) {
        return scripted ? claimScripted(id) : claimWatched(id);
    }

    /** get_one.lua: pops the tail (popped "") or claims the given id; null when nothing was claimed. */
    private Claim claimScripted(String popped) {
        List<?> reply = (List<?>) script(GET_ONE, List.of(keys.ids(), keys.items(), keys.claimed()),
            List.of(now(), popped));
        return reply.size() < 3 ? null : new Claim(text(reply.get(1)), text(reply.get(2)), (Long) reply.get(0));
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
        if (scripted) {
            script(PUT_ONE, List.of(keys.ids(), keys.publishes(), keys.items(), keys.published()),
                List.of(now(), high ? "RPUSH" : "LPUSH", id, item));
            return id;
        }
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
        return get(timeout, id -> { });
    }

    /**
     * {@link #get(Duration)}, telling {@code popped} of the id its BRPOP took before claiming it: a caller whose get
     * then fails (on a cluster, refused because the feed's master failed over or its slot moved between the two) can
     * claim that id with {@link #claimPopped(String)} where the feed is served now, instead of leaving it to
     * maintenance for a claim timeout.
     */
    public Claim get(Duration timeout, Consumer<String> popped) {
        if (scripted) {
            List<?> reply = (List<?>) script(GET_ONE, List.of(keys.ids(), keys.items(), keys.claimed()),
                List.of(now(), ""));
            if (reply.size() == 3) {
                return new Claim(text(reply.get(1)), text(reply.get(2)), (Long) reply.get(0));
            }
            // An id popped but given up (retracted, or held by someone) is a get that found nothing, as below.
            return reply.size() == 2 ? null : waitAndClaim(timeout, popped);
        }
        return claimPopped(TailPop.pop(jedis, keys.ids(), timeout), popped);
    }

    private Claim claimWatched(String id) {
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
        if (scripted) {
            return (Long) script(FINISH_ONE, List.of(keys.claimed(), keys.cancelled(), keys.finishes(), keys.items(),
                keys.published()), List.of(id, fence(claimedAt), result == null ? "" : ThoonkKeys.payload(id, result),
                keys.finishChannel())) == 1L;
        }
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
        if (scripted) {
            Long at = (Long) script(EXTEND, List.of(keys.claimed()),
                List.of(claim.id(), Long.toString(claim.claimedAt()), now()));
            return at == null ? null : new Claim(claim.id(), claim.item(), at);
        }
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
        if (scripted) {
            return (Long) script(RELEASE, List.of(keys.claimed(), keys.ids()),
                List.of(claim.id(), Long.toString(claim.claimedAt()))) == 1L;
        }
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
        if (scripted) {
            return (Long) script(CANCEL, List.of(keys.claimed(), keys.cancelled(), keys.ids()),
                List.of(id, fence(claimedAt))) == 1L;
        }
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
        if (scripted) {
            return (Long) script(STALL, List.of(keys.claimed(), keys.cancelled(), keys.stalled(), keys.published()),
                List.of(id, fence(claimedAt))) == 1L;
        }
        return Watched.run(jedis, new String[] {keys.claimed()}, j -> claimedAt(j, id, claimedAt), tx -> {
            tx.zrem(keys.claimed(), id);
            tx.hdel(keys.cancelled(), id);
            tx.sadd(keys.stalled(), id);
            tx.zrem(keys.published(), id);
        }) != null;
    }

    /** Puts a stalled job back in line. */
    public boolean retry(String id) {
        if (scripted) {
            return (Long) script(RETRY, List.of(keys.stalled(), keys.ids(), keys.published()), List.of(id, now())) == 1L;
        }
        return Watched.run(jedis, new String[] {keys.stalled()}, j -> j.sismember(keys.stalled(), id), tx -> {
            tx.srem(keys.stalled(), id);
            tx.lpush(keys.ids(), id);
            tx.zadd(keys.published(), clock.millis(), id);
        }) != null;
    }

    /** Removes a job wherever it is. */
    public boolean retract(String id) {
        if (scripted) {
            return (Long) script(RETRACT, List.of(keys.items(), keys.cancelled(), keys.published(), keys.stalled(),
                keys.claimed(), keys.ids()), List.of(id)) == 1L;
        }
        return Watched.run(jedis, new String[] {keys.items()}, j -> j.hexists(keys.items(), id), tx -> {
            tx.hdel(keys.items(), id);
            tx.hdel(keys.cancelled(), id);
            tx.zrem(keys.published(), id);
            tx.srem(keys.stalled(), id);
            tx.zrem(keys.claimed(), id);
            tx.lrem(keys.ids(), 1, id);
        }) != null;
    }

    /**
     * Maintenance's requeue of ids it found lost (an item in none of ids, claimed or stalled) for longer than the claim
     * timeout: each id is LPUSHed when, at that moment, it is still an item and still nowhere else. Which ids are lost
     * is the caller's memory of its passes; the check here is what that memory cannot know (a slow worker claimed the
     * id, someone retracted it, another maintenance requeued it, since the pass read the feed). Scripted: one script
     * for all the ids (requeue.lua); WATCH/MULTI: one optimistic loop per id.
     * @return for each id, whether it was requeued
     */
    public List<Boolean> requeueLost(List<String> lost) {
        List<Boolean> requeued = new ArrayList<>(lost.size());
        if (lost.isEmpty()) {
            return requeued;
        }
        if (scripted) {
            for (Object code : (List<?>) script(REQUEUE,
                List.of(keys.items(), keys.ids(), keys.claimed(), keys.stalled()), lost)) {
                requeued.add((Long) code == 1L);
            }
            return requeued;
        }
        String[] watched = {keys.items(), keys.ids(), keys.claimed(), keys.stalled()};
        for (String id : lost) {
            requeued.add(Watched.run(jedis, watched, j -> j.hexists(keys.items(), id)
                    && j.lpos(keys.ids(), id) == null && j.zscore(keys.claimed(), id) == null
                    && !j.sismember(keys.stalled(), id),
                tx -> tx.lpush(keys.ids(), id)) != null);
        }
        return requeued;
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
