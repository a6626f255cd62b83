package dev.redsim.conformance.contracts.thoonk;

/** A claimed job as the worker holds it; claimedAt (ms, the feed.claimed score) is the fencing token. */
public record JobClaim(String id, String item, long claimedAt) {
}
