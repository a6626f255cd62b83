package dev.redsim.conformance.contracts.jq;

import java.time.Duration;
import java.time.InstantSource;

/** The implementation under test: how to connect it, and the timing policy it promises. */
public interface JqSubject {
    /** A new connection; all time must come from {@code clock}. */
    JqPort connect(String host, int port, InstantSource clock);

    /**
     * A new connection as in production, on a host whose own wall clock reads {@code hostClock} (skewed from the
     * other hosts'): the implementation takes its time wherever it does in production.
     */
    JqPort connectOnHost(String host, int port, java.time.Clock hostClock);

    /** The configured backoff base: retry n waits base * 2^(n-1) ({@link JqBackoff}), capped at {@link #backoffCap}. */
    Duration backoffBase();

    Duration backoffCap();

    /** How long a kept result stays readable. */
    Duration resultRetention();
}
