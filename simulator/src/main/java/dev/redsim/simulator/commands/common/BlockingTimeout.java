package dev.redsim.simulator.commands.common;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Numbers;

/** The timeout argument of blocking commands, in seconds with decimals, as Redis 7.0 reads it. */
public final class BlockingTimeout {
    private static final RedisError NOT_FLOAT = new RedisError("ERR timeout is not a float or out of range");
    private static final RedisError NEGATIVE = new RedisError("ERR timeout is negative");

    private BlockingTimeout() {
    }

    /**
     * The deadline in simulator epoch ms, or 0 to wait forever. Redis rounds the milliseconds up, so any
     * positive timeout waits at least 1 ms; values too large for a long end up negative in Redis (its
     * conversion overflows), hence "negative" for inf and 1e300 too.
     */
    public static long deadline(CommandContext ctx, int index) {
        Double seconds = Numbers.parseDoubleUnchecked(ctx.arg(index));
        if (seconds == null) {
            throw NOT_FLOAT;
        }
        double millis = Math.ceil(seconds * 1000.0);
        if (!(millis < 9.223372036854775807E18) || millis < 0) {
            throw NEGATIVE;
        }
        long wait = (long) millis;
        if (wait == 0) {
            return 0;
        }
        long now = ctx.now();
        return wait > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + wait;
    }
}
