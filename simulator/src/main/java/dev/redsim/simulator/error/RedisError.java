package dev.redsim.simulator.error;

/**
 * An error reply, thrown by a command and written by the dispatcher. The message is the full Redis text,
 * starting with its code. No stack trace: errors are ordinary answers here, not bugs.
 */
public final class RedisError extends RuntimeException {
    public static final RedisError WRONGTYPE =
            new RedisError("WRONGTYPE Operation against a key holding the wrong kind of value");
    public static final RedisError NOT_INTEGER = new RedisError("ERR value is not an integer or out of range");
    public static final RedisError NOT_FLOAT = new RedisError("ERR value is not a valid float");
    public static final RedisError SYNTAX = new RedisError("ERR syntax error");
    public static final RedisError NO_SUCH_KEY = new RedisError("ERR no such key");
    public static final RedisError INDEX_OUT_OF_RANGE = new RedisError("ERR index out of range");
    public static final RedisError OVERFLOW = new RedisError("ERR increment or decrement would overflow");
    public static final RedisError NOT_POSITIVE = new RedisError("ERR value is out of range, must be positive");
    public static final RedisError DB_INDEX_OUT_OF_RANGE = new RedisError("ERR DB index is out of range");
    public static final RedisError NOAUTH = new RedisError("NOAUTH Authentication required.");

    /** True when the error reply was counted in INFO errorstats where it arose (inside a script's redis.call). */
    private final boolean counted;

    public RedisError(String message) {
        this(message, false);
    }

    private RedisError(String message, boolean counted) {
        super(message, null, false, false);
        this.counted = counted;
    }

    /**
     * A script's error that redis.call met and counted already (a command's error reply, or a refusal before the
     * command ran): the script's own error reply does not count it again, as Redis's ignore_error_stats_update says.
     */
    public static RedisError countedAlready(String message) {
        return new RedisError(message, true);
    }

    public boolean counted() {
        return counted;
    }

    /** "ERR invalid expire time in 'set' command" */
    public static RedisError invalidExpireTime(String command) {
        return new RedisError("ERR invalid expire time in '" + command + "' command");
    }

    public static RedisError wrongArity(String fullName) {
        return new RedisError("ERR wrong number of arguments for '" + fullName + "' command");
    }
}
