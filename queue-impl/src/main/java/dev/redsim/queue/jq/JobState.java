package dev.redsim.queue.jq;

import java.util.Locale;

/** Where a job is. QUEUED and DELAYED (a failed attempt waiting out its backoff) are the spec's S once due. */
public enum JobState {
    QUEUED, DELAYED, RUNNING, SUCCEEDED, FAILED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static JobState fromWire(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT));
    }
}
