package dev.redsim.conformance.contracts;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the contract suites' history runners share: a history holds when running it against the implementation
 * and the model side by side finds no problem; the last problem, the steps run and how often each kind of outcome
 * happened are kept for the report.
 *
 * @param <O> the suite's operation type
 */
public abstract class ModelCheckedRun<O> {
    /** The manual clock's start: a fixed, recent-looking epoch so cron and TTL arithmetic look real. */
    public static final long START_MILLIS = 1_700_000_000_000L;

    /** How often each kind of outcome happened over all runs (shrinking included). */
    protected final Map<String, Integer> coverage = new TreeMap<>();
    private String failure;
    private long steps;

    /** Runs the history from an empty server; null when it held, else what went wrong and where. */
    protected abstract String run(List<O> history);

    public final boolean holds(List<O> history) {
        failure = null;
        try {
            failure = run(history);
        } catch (RuntimeException e) {
            failure = "exception: " + e;
        }
        return failure == null;
    }

    /** Why the last history failed, or null. */
    public final String failure() {
        return failure;
    }

    /** Steps executed by all runs so far (shrinking included). */
    public final long steps() {
        return steps;
    }

    public final Map<String, Integer> coverage() {
        return coverage;
    }

    protected final void countStep() {
        steps++;
    }

    public static void flush(RedisTarget target) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            client.call("FLUSHALL");
        }
    }
}
