package dev.redsim.queue.thoonk;

import java.time.Duration;

/**
 * @param claimTimeout a job claimed for longer than this is taken back from its worker
 * @param maxCancels   a timed-out job already cancelled this many times is stalled instead of cancelled again
 */
public record MaintenanceSettings(Duration claimTimeout, int maxCancels) {
}
