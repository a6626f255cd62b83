package dev.redsim.queue.conveyor;

import java.time.Instant;

/**
 * A worker's claim on a job: the job as claimed, the fencing token that proves ownership, and the expiry after
 * which recovery may give the job to someone else. Only the holder of the current token can finish the job.
 */
public record Lease(Job job, String token, Instant expiresAt) {
    public String uuid() {
        return job.uuid();
    }
}
