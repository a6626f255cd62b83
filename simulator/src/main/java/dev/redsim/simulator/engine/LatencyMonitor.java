package dev.redsim.simulator.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The latency monitor (latency.c) and the per-command latency histograms (latency-tracking): what LATENCY and
 * INFO latencystats report.
 * <p>
 * Durations are real: a command's is the host's monotonic time it took on the engine thread (as Redis measures
 * ustime() around the call), an expire cycle's likewise. Sample timestamps are seconds of the simulator's clock,
 * as Redis stamps them with time(NULL): with the clock frozen, samples of the same second merge as Redis merges
 * them, and LATENCY GRAPH's "seconds ago" follow the clock a test moves.
 */
public final class LatencyMonitor {
    /** Samples kept per event (LATENCY_TS_LEN). */
    private static final int SERIES_LENGTH = 160;

    /** One event's ring of samples, oldest first from {@code next}; at most one sample per second. */
    public static final class Series {
        private final long[] seconds = new long[SERIES_LENGTH];
        private final long[] millis = new long[SERIES_LENGTH];
        private int next;
        private long allTimeHigh;

        /** The samples, oldest first: {time in seconds, latency in ms}. */
        public List<long[]> samples() {
            List<long[]> result = new ArrayList<>();
            for (int j = 0; j < SERIES_LENGTH; j++) {
                int i = (next + j) % SERIES_LENGTH;
                if (seconds[i] != 0) {
                    result.add(new long[] {seconds[i], millis[i]});
                }
            }
            return result;
        }

        /** The latest sample: {time, latency}. */
        public long[] latest() {
            int last = (next + SERIES_LENGTH - 1) % SERIES_LENGTH;
            return new long[] {seconds[last], millis[last]};
        }

        public long allTimeHigh() {
            return allTimeHigh;
        }

        void add(long nowSeconds, long latencyMillis) {
            if (latencyMillis > allTimeHigh) {
                allTimeHigh = latencyMillis;
            }
            int previous = (next + SERIES_LENGTH - 1) % SERIES_LENGTH;
            if (seconds[previous] == nowSeconds) { // one sample per second: the worst of that second
                if (latencyMillis > millis[previous]) {
                    millis[previous] = latencyMillis;
                }
                return;
            }
            seconds[next] = nowSeconds;
            millis[next] = latencyMillis;
            next = (next + 1) % SERIES_LENGTH;
        }
    }

    private final Config config;
    private final TimeSource time;
    /** Events in the order they first happened. */
    private final Map<String, Series> events = new LinkedHashMap<>();
    private final Map<String, LatencyHistogram> histograms = new HashMap<>();

    /**
     * latency-monitor-threshold and latency-tracking as read at config version {@link #settingsVersion}: every call
     * asks for both, and they change only by CONFIG SET.
     */
    private long monitorThreshold;
    private boolean tracking;
    private int settingsVersion = -1;

    private void readSettings() {
        int version = config.version();
        if (version != settingsVersion) {
            monitorThreshold = config.getLong("latency-monitor-threshold");
            tracking = "yes".equals(config.get("latency-tracking"));
            settingsVersion = version;
        }
    }

    public LatencyMonitor(Config config, TimeSource time) {
        this.config = config;
        this.time = time;
    }

    /** latencyAddSampleIfNeeded: a sample when latency-monitor-threshold is set and reached. */
    public void addSampleIfNeeded(String event, long latencyMillis) {
        readSettings();
        long threshold = monitorThreshold;
        if (threshold != 0 && latencyMillis >= threshold) {
            events.computeIfAbsent(event, e -> new Series()).add(time.millis() / 1000, latencyMillis);
        }
    }

    /**
     * A command's call ended (not a blocked one): its event ("command", or "fast-command" for a command flagged
     * fast) when slow enough, and its histogram when latency-tracking is on.
     */
    public void commandRan(String fullName, boolean fast, long micros) {
        addSampleIfNeeded(fast ? "fast-command" : "command", micros / 1000);
        if (tracking) {
            histogramMade(fullName).record(micros * 1000);
        }
    }

    /**
     * A blocked command was served (updateStatsOnUnblock): its histogram counts the call then, with the time the
     * serving took. One that times out or is woken by CLIENT UNBLOCK is not counted, as in Redis 7.0.15.
     */
    public void blockedCommandServed(String fullName, long micros) {
        if ("yes".equals(config.get("latency-tracking"))) {
            histogramMade(fullName).record(micros * 1000);
        }
    }

    /** A command's histogram, made at its first sample (without a lambda: every first start records one). */
    private LatencyHistogram histogramMade(String fullName) {
        LatencyHistogram histogram = histograms.get(fullName);
        if (histogram == null) {
            histogram = new LatencyHistogram();
            histograms.put(fullName, histogram);
        }
        return histogram;
    }

    public Series event(String name) {
        return events.get(name);
    }

    public Set<Map.Entry<String, Series>> events() {
        return Collections.unmodifiableMap(events).entrySet();
    }

    /** LATENCY RESET: all events (null) or the events named so, ignoring case; how many went. */
    public int reset(String event) {
        if (event == null) {
            int count = events.size();
            events.clear();
            return count;
        }
        int count = 0;
        for (var it = events.keySet().iterator(); it.hasNext(); ) {
            if (it.next().equalsIgnoreCase(event)) {
                it.remove();
                count++;
            }
        }
        return count;
    }

    /** The histogram of a command (its full name, "client|id"), or null when it never ran since tracking. */
    public LatencyHistogram histogram(String fullName) {
        return histograms.get(fullName);
    }

    /** The commands with a histogram, by full name in byte order. */
    public List<String> commandsWithHistograms() {
        List<String> names = new ArrayList<>(histograms.keySet());
        Collections.sort(names);
        return names;
    }

    /** CONFIG RESETSTAT drops the histograms, as it resets the command table's statistics. */
    public void resetHistograms() {
        histograms.clear();
    }

    /** The percentiles INFO latencystats prints (latency-tracking-info-percentiles). */
    public double[] infoPercentiles() {
        String text = config.get("latency-tracking-info-percentiles").trim();
        if (text.isEmpty()) {
            return new double[0];
        }
        String[] parts = text.split("\\s+");
        double[] values = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = Double.parseDouble(parts[i]);
        }
        return values;
    }
}
