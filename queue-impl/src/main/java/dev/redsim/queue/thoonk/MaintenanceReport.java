package dev.redsim.queue.thoonk;

/**
 * What one maintenance pass saw and did. The counts of the pass's own snapshot, then its actions.
 */
public record MaintenanceReport(int items, int available, int claimed, int stalled, int unaccounted,
                                int requeued, int cancelled, int stalledNow) {
    /** The report as a feed item (stats are published to a feed, as the contract asks). */
    public String toItem() {
        return "{\"items\":" + items + ",\"available\":" + available + ",\"claimed\":" + claimed + ",\"stalled\":"
            + stalled + ",\"unaccounted\":" + unaccounted + ",\"requeued\":" + requeued + ",\"cancelled\":"
            + cancelled + ",\"stalledNow\":" + stalledNow + "}";
    }
}
