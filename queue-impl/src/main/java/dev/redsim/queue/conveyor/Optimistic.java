package dev.redsim.queue.conveyor;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

import java.util.function.Supplier;

/**
 * The WATCH / read / MULTI / EXEC retry loop every transition uses (the simulator has no Lua, and this works on
 * any Redis). An attempt returns null when EXEC was aborted by a concurrent change, and is then run again from
 * fresh reads. Redis errors become {@link RedisFailureException}; the deadline is checked before every attempt.
 */
final class Optimistic {
    private final Jedis jedis;
    private final int maxAttempts;

    Optimistic(Jedis jedis, int maxAttempts) {
        this.jedis = jedis;
        this.maxAttempts = maxAttempts;
    }

    <T> T run(String operation, Deadline deadline, Supplier<T> attempt) {
        for (int i = 0; i < maxAttempts; i++) {
            deadline.check(operation);
            T result;
            try {
                result = attempt.get();
            } catch (JedisException e) {
                throw new RedisFailureException(operation, e);
            } catch (RuntimeException e) {
                // An attempt that stopped between its WATCH and its EXEC (bad bytes, lost lease) must not leave
                // the connection watching: the caller's next transaction would abort for someone else's write.
                unwatchQuietly();
                throw e;
            }
            if (result != null) {
                return result;
            }
        }
        throw new ConveyorException(operation + ": gave up after " + maxAttempts + " conflicting attempts");
    }

    private void unwatchQuietly() {
        try {
            jedis.unwatch();
        } catch (JedisException ignored) {
            // the connection is broken: nothing is watched on it any more
        }
    }

    /** One command outside a transaction, with the same error translation. */
    <T> T once(String operation, Deadline deadline, Supplier<T> command) {
        deadline.check(operation);
        try {
            return command.get();
        } catch (JedisException e) {
            throw new RedisFailureException(operation, e);
        }
    }

    Jedis jedis() {
        return jedis;
    }
}
