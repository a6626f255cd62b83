package dev.redsim.queue.jq;

import java.time.Duration;

/**
 * Timing policy. Retry n (1-based) waits {@code backoffBase * 2^(n-1)}, capped at {@code backoffCap}; kept
 * results live {@code resultRetention} unless read first; a finished job's record (and its entry in the succeeded or
 * failed set) lives {@code finishedRetention} after its finish, however many jobs finish meanwhile (a count cap
 * dropped records seconds after their finish at high rates). A claim reads candidates in pages of at most {@code scanPage} jobs, as many pages as it takes to find an
 * admitted job or reach the end of the ready set.
 */
public record JqOptions(Duration backoffBase, Duration backoffCap, Duration resultRetention,
                        Duration finishedRetention, int scanPage) {
    public static JqOptions defaults() {
        return new JqOptions(Duration.ofSeconds(1), Duration.ofHours(1), Duration.ofHours(1), Duration.ofDays(1),
                256);
    }

    public JqOptions withFinishedRetention(Duration retention) {
        return new JqOptions(backoffBase, backoffCap, resultRetention, retention, scanPage);
    }

    public JqOptions withResultRetention(Duration retention) {
        return new JqOptions(backoffBase, backoffCap, retention, finishedRetention, scanPage);
    }

    public Duration backoff(int retry) {
        int shift = Math.min(Math.max(retry - 1, 0), 40);
        long millis = backoffBase.toMillis() << shift;
        return millis <= 0 || millis > backoffCap.toMillis() ? backoffCap : Duration.ofMillis(millis);
    }
}
