package dev.redsim.conformance.contracts.thoonk;

/** What one maintenance pass did. */
public record MaintenanceOutcome(int requeued, int cancelled, int stalled) {
}
