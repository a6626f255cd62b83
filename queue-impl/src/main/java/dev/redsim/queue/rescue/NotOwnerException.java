package dev.redsim.queue.rescue;

/**
 * Delete or extend refused: the caller does not own the task (any more). README: deleting an expired task is an
 * error on the consumer side, because its copy is outdated.
 */
public final class NotOwnerException extends RescueException {
    public NotOwnerException(String message) {
        super(message);
    }
}
