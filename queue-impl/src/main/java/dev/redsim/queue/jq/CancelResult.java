package dev.redsim.queue.jq;

/** What a cancel found: the job's state afterwards, and whether this call ended it (false: it had finished). */
public record CancelResult(JobState state, boolean cancelled) {
}
