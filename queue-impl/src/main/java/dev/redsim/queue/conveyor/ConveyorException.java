package dev.redsim.queue.conveyor;

/** The root of Conveyor's errors, so callers can catch "anything Conveyor" or one kind precisely. */
public class ConveyorException extends RuntimeException {
    public ConveyorException(String message) {
        super(message);
    }

    public ConveyorException(String message, Throwable cause) {
        super(message, cause);
    }
}
