package dev.redsim.conformance.contracts.rescue;

import java.util.Map;
import java.util.TreeMap;

/**
 * A task as the suite sees it: the README's seven label sets, implementation-neutral. Empty maps are absent
 * sections. The with-methods return changed copies.
 */
public record RescueTask(Map<String, String> core, Map<String, String> cron, Map<String, String> gate,
                         Map<String, String> meta, Map<String, String> node, Map<String, String> root,
                         Map<String, String> sync) {
    public static final String OBJECT = "task.rescue.io/object";
    public static final String WORKER = "task.rescue.io/worker";
    public static final String EXPIRY = "task.rescue.io/expiry";
    public static final String CYCLES = "task.rescue.io/cycles";
    public static final String BYPASS = "task.rescue.io/bypass";
    public static final String ORIGIN = "task.rescue.io/origin";
    public static final String EVERY = "time.rescue.io/@every";
    public static final String TICK_PREVIOUS = "time.rescue.io/tick-1";
    public static final String TICK_NEXT = "time.rescue.io/tick+1";
    public static final String METHOD = "addr.rescue.io/method";

    public RescueTask {
        core = sorted(core);
        cron = sorted(cron);
        gate = sorted(gate);
        meta = sorted(meta);
        node = sorted(node);
        root = sorted(root);
        sync = sorted(sync);
    }

    public static RescueTask meta(Map<String, String> meta) {
        return new RescueTask(Map.of(), Map.of(), Map.of(), meta, Map.of(), Map.of(), Map.of());
    }

    public RescueTask withCore(Map<String, String> v) {
        return new RescueTask(v, cron, gate, meta, node, root, sync);
    }

    public RescueTask withCron(Map<String, String> v) {
        return new RescueTask(core, v, gate, meta, node, root, sync);
    }

    public RescueTask withGate(Map<String, String> v) {
        return new RescueTask(core, cron, v, meta, node, root, sync);
    }

    public RescueTask withNode(Map<String, String> v) {
        return new RescueTask(core, cron, gate, meta, v, root, sync);
    }

    public RescueTask withRoot(Map<String, String> v) {
        return new RescueTask(core, cron, gate, meta, node, v, sync);
    }

    public RescueTask withSync(Map<String, String> v) {
        return new RescueTask(core, cron, gate, meta, node, root, v);
    }

    /** A copy with one Core label set, or removed when value is null. */
    public RescueTask withCoreLabel(String key, String value) {
        Map<String, String> c = new TreeMap<>(core);
        if (value == null) {
            c.remove(key);
        } else {
            c.put(key, value);
        }
        return withCore(c);
    }

    public String object() {
        return core.get(OBJECT);
    }

    public long id() {
        return Long.parseLong(object());
    }

    public boolean isTemplate() {
        return !cron.isEmpty() || (!gate.isEmpty() && !gate.containsValue("trigger"));
    }

    public String method() {
        return node.getOrDefault(METHOD, "any");
    }

    private static Map<String, String> sorted(Map<String, String> labels) {
        return labels == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("{");
        append(out, "core", core);
        append(out, "cron", cron);
        append(out, "gate", gate);
        append(out, "meta", meta);
        append(out, "node", node);
        append(out, "root", root);
        append(out, "sync", sync);
        return out.append('}').toString();
    }

    private static void append(StringBuilder out, String name, Map<String, String> labels) {
        if (!labels.isEmpty()) {
            out.append(name).append('=').append(labels).append(' ');
        }
    }
}
