package dev.redsim.conformance.contracts.jq;

import java.time.Duration;

/**
 * The spec's backoff, computed by the suite itself: retry n (1-based) waits {@code base * 2^(n-1)}, capped. The
 * suite never asks the implementation for a delay, only for its configured base and cap, so a constant or linear
 * backoff in the implementation cannot pass by agreeing with itself.
 */
public final class JqBackoff {
    private JqBackoff() {
    }

    public static long millis(Duration base, Duration cap, int retry) {
        long delay = base.toMillis();
        for (int i = 1; i < retry && delay < cap.toMillis(); i++) {
            delay *= 2;
        }
        return Math.min(delay, cap.toMillis());
    }
}
