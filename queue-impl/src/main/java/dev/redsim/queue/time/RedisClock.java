package dev.redsim.queue.time;

import dev.redsim.queue.connection.RedisConnections;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Redis's TIME as the one clock of every worker: leases, deadlines, rate windows and fencing are then measured
 * on the same time line whatever the hosts' own clocks say, so a host whose clock runs 30 s ahead cannot reclaim
 * a job early. TIME is asked every {@code resampleEvery} (a round trip on a connection of its own, never in the
 * middle of a caller's transaction); in between, the time since the last answer is added, measured with a local
 * elapsed-time source (System.nanoTime by default, which wall-clock jumps do not move). Readings never go
 * backwards. Thread-safe. A {@link Clock}, hence also a {@link java.time.InstantSource}: it plugs in wherever the
 * queues take one; tests keep injecting a manual clock instead.
 */
public final class RedisClock extends Clock {
    private final Supplier<Instant> redisTime;
    private final LongSupplier elapsedNanos;
    private final long resampleNanos;
    private long sampledAtNanos;
    private long sampledMillis;
    private boolean sampled;
    private long lastMillis = Long.MIN_VALUE;

    /**
     * @param redisTime    asks Redis for TIME
     * @param elapsedNanos a monotonic nanosecond counter (System::nanoTime)
     * @param resampleEvery how long a reading of TIME is extrapolated; zero asks TIME on every reading
     */
    public RedisClock(Supplier<Instant> redisTime, LongSupplier elapsedNanos, Duration resampleEvery) {
        this.redisTime = redisTime;
        this.elapsedNanos = elapsedNanos;
        this.resampleNanos = resampleEvery.toNanos();
    }

    /** TIME through connections borrowed from {@code pool}, asked at most once a second. */
    public static RedisClock over(JedisPool pool) {
        return over(pool, Duration.ofSeconds(1));
    }

    public static RedisClock over(JedisPool pool, Duration resampleEvery) {
        return new RedisClock(() -> {
            try (Jedis jedis = pool.getResource()) {
                return parse(jedis.time());
            }
        }, System::nanoTime, resampleEvery);
    }

    /**
     * TIME of the server holding {@code key}, asked at most once a second. On a cluster every node has its own
     * clock; a queue asks the node that holds its keys, the one whose TIME its scripts read.
     */
    public static RedisClock over(RedisConnections connections, byte[] key) {
        byte[] routing = key.clone();
        return new RedisClock(() -> {
            try (Jedis jedis = connections.forKey(routing)) {
                return parse(jedis.time());
            }
        }, System::nanoTime, Duration.ofSeconds(1));
    }

    /** TIME's reply: seconds and microseconds, as strings. */
    public static Instant parse(List<String> time) {
        return Instant.ofEpochSecond(Long.parseLong(time.get(0)), Long.parseLong(time.get(1)) * 1_000);
    }

    @Override
    public synchronized long millis() {
        long nowNanos = elapsedNanos.getAsLong();
        if (!sampled || nowNanos - sampledAtNanos >= resampleNanos) {
            sampledMillis = redisTime.get().toEpochMilli();
            sampledAtNanos = nowNanos;
            sampled = true;
        }
        long millis = sampledMillis + (nowNanos - sampledAtNanos) / 1_000_000;
        lastMillis = Math.max(lastMillis, millis);
        return lastMillis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
