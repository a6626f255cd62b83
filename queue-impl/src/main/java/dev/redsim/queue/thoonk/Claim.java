package dev.redsim.queue.thoonk;

/**
 * A job as a worker holds it. claimedAt is the feed.claimed score this worker wrote: it is the fencing token,
 * since a reclaim by another worker writes a later score (see docs/contracts/thoonk.md).
 */
public record Claim(String id, String item, long claimedAt) {
}
