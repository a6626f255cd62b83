package dev.redsim.conformance.contracts.thoonk;

/**
 * @param claimTimeoutMillis maintenance takes back a job claimed for strictly longer than this
 * @param maxCancels         a timed-out job already cancelled this many times is stalled, not cancelled
 */
public record JobQueueSettings(long claimTimeoutMillis, int maxCancels) {
}
