package dev.redsim.queue.conveyor;

import java.time.Instant;

/**
 * One run of a job, as a {@link ConveyorWorker} hands it to its handler.
 *
 * @param attempt  1 for the first run, n + 1 for retry n
 * @param deadline when the lease expires unless the heartbeat renews it (it does while the handler runs)
 */
public record ConveyorRun(Job job, int attempt, Instant deadline) {
    public String uuid() {
        return job.uuid();
    }
}
