package dev.redsim.simulator.command;

/** Redis 7.0 command flags, with the names COMMAND INFO prints. */
public enum CommandFlag {
    WRITE, READONLY, DENYOOM, MODULE, ADMIN, PUBSUB, NOSCRIPT, BLOCKING, LOADING, STALE, SKIP_MONITOR,
    SKIP_SLOWLOG, ASKING, FAST, NO_AUTH, MAY_REPLICATE, SENTINEL, ONLY_SENTINEL, NO_MANDATORY_KEYS, PROTECTED,
    NO_ASYNC_LOADING, NO_MULTI, MOVABLEKEYS, ALLOW_BUSY;

    public String redisName() {
        return name().toLowerCase();
    }
}
