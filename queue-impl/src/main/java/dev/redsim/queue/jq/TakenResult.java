package dev.redsim.queue.jq;

import java.util.Optional;

/** What a pusher's result read answers: the kept result (once, see {@link JobQueue#takeResult}) and the job's state. */
public record TakenResult(Optional<byte[]> result, Optional<JobState> state) {
}
