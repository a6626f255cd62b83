package dev.redsim.conformance.contracts.jq;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JQ operations the suite drives, on one connection. Implement this and {@link JqSubject} over your own
 * master to run the suite against it. Redis failures surface as runtime exceptions.
 */
public interface JqPort extends AutoCloseable {
    /** @return the new job's id; ids grow in enqueue order */
    long enqueue(JqJob job);

    /** The chosen job (the spec's selection), dispatched; empty when none is eligible. */
    Optional<JqClaim> claim(String worker);

    /** Reports success with the result string; false when the attempt is no longer running (stale). */
    boolean succeed(JqClaim claim, String result);

    /** Reports failure (reason "other"); false when stale. */
    boolean fail(JqClaim claim, boolean shouldRetry, String message);

    /** Fails every attempt past its timeout; returns how many. */
    int expireOverdue();

    /**
     * Takes a kept result once: "success:" + the result string, or "failure:" + the reason ("other",
     * "timeout"); null when there is none (never kept, already read, expired, not finished).
     */
    String takeResult(long id);

    void putConstraint(JqConstraintSpec constraint);

    /** Job ids by state: "queued", "delayed", "running", "succeeded", "failed". */
    Map<String, List<Long>> places();

    /**
     * The constraints' bookkeeping: constraint id -> {attempts holding a concurrency slot now, dispatches in the
     * rate window (now - window, now]}.
     */
    Map<String, List<Long>> constraintUsage();

    /** The per-name statistics: job name -> state -> count (queued/delayed/running now, succeeded/failed ever). */
    Map<String, Map<String, Long>> stats();

    /** Attempts made so far. */
    int attempts(long id);

    @Override
    void close();
}
