package dev.redsim.queue.conveyor;

/** The job's status enum of jobs.proto; the numbers are the wire values. */
public enum JobStatus {
    ENQUEUED(0), RUNNING(1), COMPLETED(2), FAILED(3);

    private final int wire;

    JobStatus(int wire) {
        this.wire = wire;
    }

    public int wire() {
        return wire;
    }

    public boolean finished() {
        return this == COMPLETED || this == FAILED;
    }

    /** Unknown numbers are a marshalling error, not a silent ENQUEUED: a newer writer must not be misread. */
    static JobStatus fromWire(int value) {
        for (JobStatus s : values()) {
            if (s.wire == value) {
                return s;
            }
        }
        throw new MarshalException("unknown job status " + value);
    }
}
