package dev.redsim.queue.jq;

import java.time.Duration;

/**
 * Timing policy. Retry n (1-based) waits {@code backoffBase * 2^(n-1)}, capped at {@code backoffCap}; kept
 * results live {@code resultRetention} unless read first; {@code keepFinished} finished records are kept per end
 * state. A claim reads candidates in pages of at most {@code scanPage} jobs, as many pages as it takes to find an
 * admitted job or reach the end of the ready set.
 */
public record JqOptions(Duration backoffBase, Duration backoffCap, Duration resultRetention, int keepFinished,
                        int scanPage) {
    public static JqOptions defaults() {
        return new JqOptions(Duration.ofSeconds(1), Duration.ofHours(1), Duration.ofHours(1), 1000, 256);
    }

    public Duration backoff(int retry) {
        int shift = Math.min(Math.max(retry - 1, 0), 40);
        long millis = backoffBase.toMillis() << shift;
        return millis <= 0 || millis > backoffCap.toMillis() ? backoffCap : Duration.ofMillis(millis);
    }
}
