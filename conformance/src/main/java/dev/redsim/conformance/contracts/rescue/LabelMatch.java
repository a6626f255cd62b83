package dev.redsim.conformance.contracts.rescue;

import java.util.Map;

/** The README's label matching: every query label present, "*" as any key or any value. */
final class LabelMatch {
    private LabelMatch() {
    }

    static boolean matches(RescueTask query, RescueTask task) {
        return subset(query.core(), task.core()) && subset(query.cron(), task.cron())
                && subset(query.gate(), task.gate()) && subset(query.meta(), task.meta())
                && subset(query.node(), task.node()) && subset(query.root(), task.root())
                && subset(query.sync(), task.sync());
    }

    static boolean subset(Map<String, String> query, Map<String, String> labels) {
        for (Map.Entry<String, String> q : query.entrySet()) {
            String key = q.getKey();
            String value = q.getValue();
            boolean ok;
            if (!key.equals("*")) {
                String actual = labels.get(key);
                ok = actual != null && (value.equals("*") || value.equals(actual));
            } else {
                ok = value.equals("*") ? !labels.isEmpty() : labels.containsValue(value);
            }
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
