package dev.redsim.queue.jq.client;

import org.msgpack.value.Value;

/**
 * A failed job, as the spec's failure object: a message for the UI, an error value, and whether the master should
 * retry (it still retries at most max_retry times). Any other exception is a failure with should_retry = true.
 */
public class JobFailedException extends Exception {
    private final boolean shouldRetry;
    private final transient Value error;

    public JobFailedException(String message, boolean shouldRetry, Value error) {
        super(message);
        this.shouldRetry = shouldRetry;
        this.error = error;
    }

    public boolean shouldRetry() {
        return shouldRetry;
    }

    public Value error() {
        return error;
    }
}
