package dev.redsim.queue.conveyor;

/** Bytes that are not a job in jobs.proto's wire format, or a job that cannot be encoded. */
public final class MarshalException extends ConveyorException {
    public MarshalException(String message) {
        super("job marshalling failed: " + message);
    }
}
