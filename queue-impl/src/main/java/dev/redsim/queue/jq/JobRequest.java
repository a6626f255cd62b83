package dev.redsim.queue.jq;

import java.util.Objects;

/**
 * What a pusher enqueues, as the spec lists it. {@code argument} is one MessagePack object, kept as its bytes.
 *
 * @param timeoutMillis the spec's timeout (seconds on the wire), default 30 s
 */
public record JobRequest(String name, byte[] argument, int priority, int maxRetry, boolean keepResult,
                         long timeoutMillis) {
    public static final long DEFAULT_TIMEOUT_MILLIS = 30_000;

    public JobRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(argument, "argument");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name must not be empty");
        }
        if (maxRetry < 0) {
            throw new IllegalArgumentException("max_retry must be >= 0");
        }
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("timeout must be > 0");
        }
    }

    /** A job with the spec's defaults: priority 0, no retry, result dropped, 30 s timeout. */
    public static JobRequest of(String name, byte[] argument) {
        return new JobRequest(name, argument, 0, 0, false, DEFAULT_TIMEOUT_MILLIS);
    }

    public JobRequest withPriority(int p) {
        return new JobRequest(name, argument, p, maxRetry, keepResult, timeoutMillis);
    }

    public JobRequest withMaxRetry(int r) {
        return new JobRequest(name, argument, priority, r, keepResult, timeoutMillis);
    }

    public JobRequest withKeepResult(boolean k) {
        return new JobRequest(name, argument, priority, maxRetry, k, timeoutMillis);
    }

    public JobRequest withTimeoutMillis(long t) {
        return new JobRequest(name, argument, priority, maxRetry, keepResult, t);
    }
}
