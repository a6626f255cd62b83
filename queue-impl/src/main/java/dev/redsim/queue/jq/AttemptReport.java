package dev.redsim.queue.jq;

/** One outcome of a batch report: attempt {@code attempt} of job {@code id} ended with {@code outcome}. */
public record AttemptReport(long id, int attempt, Outcome outcome) {
}
