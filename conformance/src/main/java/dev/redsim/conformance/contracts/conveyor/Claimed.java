package dev.redsim.conformance.contracts.conveyor;

/**
 * A job the implementation handed to a worker, with whatever the implementation needs to finish it later
 * (its lease / fencing token), kept opaque to the suite.
 */
public record Claimed(String uuid, int retry, Object lease) {
}
