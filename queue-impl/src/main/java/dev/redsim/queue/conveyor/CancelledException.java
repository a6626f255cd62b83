package dev.redsim.queue.conveyor;

/** The caller's {@link Deadline} passed or was cancelled before the operation committed; nothing was written. */
public final class CancelledException extends ConveyorException {
    public CancelledException(String message) {
        super(message);
    }
}
