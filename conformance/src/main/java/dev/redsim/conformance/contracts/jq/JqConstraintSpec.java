package dev.redsim.conformance.contracts.jq;

/**
 * A constraint: jobs named {@code name} (and, when {@code tenant} is not null, whose argument field "tenant"
 * equals it) are limited to {@code rateLimit} dispatches per {@code windowMillis} (0: no rate) and to
 * {@code concurrency} running at once (0: unlimited).
 */
public record JqConstraintSpec(String id, String name, String tenant, int rateLimit, long windowMillis,
                               int concurrency) {
}
