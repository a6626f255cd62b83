package dev.redsim.queue.conveyor;

/**
 * Redis could not be reached or refused a command. The operation may or may not have been applied (a reply can
 * be lost after EXEC): every transition is atomic, so it applied fully or not at all, and recovery cleans up.
 */
public final class RedisFailureException extends ConveyorException {
    public RedisFailureException(String operation, Throwable cause) {
        super("redis failure during " + operation + ": " + cause.getMessage(), cause);
    }
}
