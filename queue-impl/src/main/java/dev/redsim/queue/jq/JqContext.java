package dev.redsim.queue.jq;

import dev.redsim.queue.time.ServerTime;
import redis.clients.jedis.Jedis;

import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.function.Supplier;

/**
 * What every JQ operation needs: one connection, the keys, the clock (all time comes from it, never from Redis,
 * so tests move it by hand), the options, and the WATCH / MULTI / EXEC retry loop: an attempt returns null when
 * EXEC was aborted by a concurrent change and is run again from fresh reads.
 */
final class JqContext {
    private static final int MAX_ATTEMPTS = 1000;

    final Jedis jedis;
    final JqKeys keys;
    final InstantSource clock;
    final JqOptions options;

    JqContext(Jedis jedis, JqKeys keys, InstantSource clock, JqOptions options) {
        this.jedis = jedis;
        this.keys = keys;
        this.clock = clock;
        this.options = options;
    }

    long now() {
        return clock.millis();
    }

    /** The time argument of a script: '' (read Redis's TIME inside it) for a RedisClock, else the clock's now. */
    String scriptTime() {
        return ServerTime.argument(clock);
    }

    <T> T optimistic(String operation, Supplier<T> attempt) {
        for (int i = 0; i < MAX_ATTEMPTS; i++) {
            T result = attempt.get();
            if (result != null) {
                return result;
            }
        }
        throw new IllegalStateException(operation + ": gave up after " + MAX_ATTEMPTS + " conflicting attempts");
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(long n) {
        return bytes(Long.toString(n));
    }

    static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
