package dev.redsim.conformance.contracts.jq;

/** One dispatch: the job id and the attempt number (1-based) that fences its report. */
public record JqClaim(long id, int attempt, String name) {
}
