package dev.redsim.queue.jq;

/** ACCEPTED: the outcome was recorded. STALE: the attempt is no longer running (timed out, or reported). */
public enum ReportStatus {
    ACCEPTED, STALE
}
