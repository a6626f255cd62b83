package dev.redsim.queue.conveyor;

/** The caller's input cannot be a job (nil job, no queue, negative retries): nothing was written. */
public final class InvalidJobException extends ConveyorException {
    public InvalidJobException(String message) {
        super("invalid job: " + message);
    }
}
