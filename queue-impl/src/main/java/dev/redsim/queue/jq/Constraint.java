package dev.redsim.queue.jq;

import org.msgpack.value.Value;

import java.util.Map;

/**
 * A limit on the jobs a matcher selects: at most {@code rateLimit} dispatches in any window of
 * {@code rateWindowMillis} (0 = no rate limit), and at most {@code concurrency} running at once (0 = none).
 * Both are checked and recorded in the dispatch transaction, so racing masters cannot exceed them.
 */
public record Constraint(String id, JobMatcher matcher, int rateLimit, long rateWindowMillis, int concurrency) {
    public Constraint {
        if (id == null || id.isEmpty() || id.contains(":")) {
            throw new IllegalArgumentException("constraint id must be non-empty and without ':'");
        }
        if (rateLimit < 0 || concurrency < 0 || (rateLimit > 0 && rateWindowMillis <= 0)) {
            throw new IllegalArgumentException("limits must be >= 0, and a rate needs a positive window");
        }
    }

    public Value toValue() {
        return Msgpack.map("id", id, "matcher", matcher.toValue(),
                "rate", rateLimit == 0 ? null : Msgpack.map("limit", rateLimit, "window_ms", rateWindowMillis),
                "concurrency", concurrency == 0 ? null : concurrency);
    }

    /** Reads the wire form; {@code id} overrides the body's (the URL names it). */
    public static Constraint fromValue(String id, Value value) {
        Map<String, Value> fields = Msgpack.fields(value);
        JobMatcher matcher = fields.containsKey("matcher") && !fields.get("matcher").isNilValue()
                ? JobMatcher.fromValue(fields.get("matcher")) : new JobMatcher(null, Map.of());
        int limit = 0;
        long window = 0;
        Value rate = fields.get("rate");
        if (rate != null && !rate.isNilValue()) {
            Map<String, Value> r = Msgpack.fields(rate);
            limit = r.get("limit").asIntegerValue().toInt();
            window = r.get("window_ms").asIntegerValue().toLong();
        }
        Value concurrency = fields.get("concurrency");
        int c = concurrency == null || concurrency.isNilValue() ? 0 : concurrency.asIntegerValue().toInt();
        return new Constraint(id, matcher, limit, window, c);
    }
}
