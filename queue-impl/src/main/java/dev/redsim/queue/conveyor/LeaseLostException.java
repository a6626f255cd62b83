package dev.redsim.queue.conveyor;

/**
 * The fencing check failed: the lease this worker holds is no longer the job's current lease (it expired and
 * the job was reclaimed, or the job was already finished). The worker's result is discarded.
 */
public final class LeaseLostException extends ConveyorException {
    public LeaseLostException(String uuid) {
        super("lease lost for job " + uuid + ": it was reclaimed or already finished");
    }
}
