package dev.redsim.queue.jq;

import dev.redsim.queue.script.Transitions;

import java.time.Duration;

/**
 * Timing policy. Retry n (1-based) waits {@code backoffBase * 2^(n-1)}, capped at {@code backoffCap}; kept
 * results live {@code resultRetention} unless read first; a finished job's record (and its entry in the succeeded or
 * failed set) lives {@code finishedRetention} after its finish, however many jobs finish meanwhile (a count cap
 * dropped records seconds after their finish at high rates). A claim reads candidates in pages of at most {@code scanPage} jobs, as many pages as it takes to find an
 * admitted job or reach the end of the ready set. {@code transitions}: enqueue, claim and report as Lua scripts (the
 * default) or as the WATCH/MULTI forms (docs/contracts/jq.md).
 */
public record JqOptions(Duration backoffBase, Duration backoffCap, Duration resultRetention,
                        Duration finishedRetention, int scanPage, Transitions transitions) {
    public JqOptions(Duration backoffBase, Duration backoffCap, Duration resultRetention, Duration finishedRetention,
                     int scanPage) {
        this(backoffBase, backoffCap, resultRetention, finishedRetention, scanPage, Transitions.SCRIPTS);
    }

    public static JqOptions defaults() {
        return new JqOptions(Duration.ofSeconds(1), Duration.ofHours(1), Duration.ofHours(1), Duration.ofDays(1),
                256);
    }

    public JqOptions withFinishedRetention(Duration retention) {
        return new JqOptions(backoffBase, backoffCap, resultRetention, retention, scanPage, transitions);
    }

    public JqOptions withResultRetention(Duration retention) {
        return new JqOptions(backoffBase, backoffCap, retention, finishedRetention, scanPage, transitions);
    }

    public JqOptions withTransitions(Transitions value) {
        return new JqOptions(backoffBase, backoffCap, resultRetention, finishedRetention, scanPage, value);
    }

    boolean scripted() {
        return transitions == Transitions.SCRIPTS;
    }

    public Duration backoff(int retry) {
        int shift = Math.min(Math.max(retry - 1, 0), 40);
        long millis = backoffBase.toMillis() << shift;
        return millis <= 0 || millis > backoffCap.toMillis() ? backoffCap : Duration.ofMillis(millis);
    }
}
