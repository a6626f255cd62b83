package dev.redsim.queue.jq;

/**
 * One dispatch of a job to a worker. {@code attempt} (1-based) is the fencing token: a result is accepted only
 * for the attempt that is still running.
 */
public record Assignment(long id, int attempt, String name, byte[] argument, long timeoutMillis,
                         long deadlineMillis) {
}
