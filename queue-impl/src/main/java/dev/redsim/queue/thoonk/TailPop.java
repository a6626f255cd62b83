package dev.redsim.queue.thoonk;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.KeyValue;

import java.time.Duration;

/**
 * Takes the tail of a list, waiting up to a timeout. BRPOP reads a timeout of 0 as "wait for ever", and a
 * Duration under one millisecond would round to it: such timeouts (zero included) pop without waiting (RPOP).
 * Longer ones are passed to BRPOP in seconds with millisecond precision.
 */
final class TailPop {
    private TailPop() {
    }

    /** @return the popped value, or null when the list stayed empty for the whole timeout */
    static String pop(Jedis jedis, String key, Duration timeout) {
        long millis = timeout.isNegative() ? 0 : timeout.toMillis();
        if (millis == 0) {
            return jedis.rpop(key);
        }
        KeyValue<String, String> popped = jedis.brpop(millis / 1000.0, key);
        return popped == null ? null : popped.getValue();
    }
}
