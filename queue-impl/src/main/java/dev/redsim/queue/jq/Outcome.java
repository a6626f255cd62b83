package dev.redsim.queue.jq;

/**
 * What a worker reports for an attempt, as the spec's result object. {@code encoded} is the whole object as
 * MessagePack (what a keep_result pusher gets back); the other fields are what the master acts on.
 */
public sealed interface Outcome {
    byte[] encoded();

    record Success(byte[] encoded) implements Outcome {
    }

    /** @param reason "other" or "timeout" */
    record Failure(byte[] encoded, String reason, boolean shouldRetry, String message) implements Outcome {
    }
}
