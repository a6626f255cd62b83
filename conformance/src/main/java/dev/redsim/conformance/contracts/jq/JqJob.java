package dev.redsim.conformance.contracts.jq;

/**
 * A job as the suite enqueues it. {@code tenant}, when not null, becomes the argument map {"tenant": tenant}
 * (so matchers on argument fields have something to select); otherwise the argument is the string "x".
 */
public record JqJob(String name, String tenant, int priority, int maxRetry, boolean keepResult,
                    long timeoutMillis) {
    public static JqJob named(String name) {
        return new JqJob(name, null, 0, 0, false, 30_000);
    }
}
