package dev.redsim.queue.thoonk;

import java.time.Instant;

/**
 * One run of a job, as a {@link JobWorker} hands it to its handler.
 *
 * @param attempt  1 for the first run, then one more per earlier failure (cancel) since the job last stalled
 * @param deadline when the claim times out unless the heartbeat renews it (it does while the handler runs)
 */
public record JobRun(String id, String item, int attempt, Instant deadline) {
}
