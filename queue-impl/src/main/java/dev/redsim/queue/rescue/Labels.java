package dev.redsim.queue.rescue;

import java.util.Map;

/** The reserved label keys and values of the README, and label matching with the "*" wildcard. */
public final class Labels {
    public static final String OBJECT = "task.rescue.io/object";
    public static final String WORKER = "task.rescue.io/worker";
    public static final String EXPIRY = "task.rescue.io/expiry";
    public static final String CYCLES = "task.rescue.io/cycles";
    /** Ours: lets anyone delete a template (README: "the bypass label"); value "true". */
    public static final String BYPASS = "task.rescue.io/bypass";
    /** Ours: the template a task was emitted from, so its Sync can flow back on deletion. */
    public static final String ORIGIN = "task.rescue.io/origin";

    public static final String EVERY = "time.rescue.io/@every";
    public static final String TICK_PREVIOUS = "time.rescue.io/tick-1";
    public static final String TICK_NEXT = "time.rescue.io/tick+1";

    public static final String METHOD = "addr.rescue.io/method";
    public static final String ANY = "any";
    public static final String ALL = "all";
    public static final String UNI = "uni";

    public static final String WAITING = "waiting";
    public static final String TRIGGER = "trigger";
    public static final String DELETED = "deleted";

    public static final String WILDCARD = "*";

    private Labels() {
    }

    /**
     * True when every query label is matched by the labels: a "*" value matches any value of that key, a "*" key
     * matches any key with that value ("*" = "*" needs at least one label).
     */
    public static boolean matches(Map<String, String> query, Map<String, String> labels) {
        for (Map.Entry<String, String> q : query.entrySet()) {
            if (!matchesOne(q.getKey(), q.getValue(), labels)) {
                return false;
            }
        }
        return true;
    }

    private static boolean matchesOne(String key, String value, Map<String, String> labels) {
        if (!key.equals(WILDCARD)) {
            String actual = labels.get(key);
            return actual != null && (value.equals(WILDCARD) || value.equals(actual));
        }
        return value.equals(WILDCARD) ? !labels.isEmpty() : labels.containsValue(value);
    }
}
