package dev.redsim.queue.rescue;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A task: seven label sets (README: Core, Cron, Gate, Meta, Node, Root, Sync), each a map of label key to value.
 * Immutable; the with-methods return changed copies. Empty sections are the README's nil sections.
 */
public final class Task {
    /** The label sets, in the README's order. Their lower-case names prefix the fields of the task's hash. */
    public enum Section {
        CORE, CRON, GATE, META, NODE, ROOT, SYNC;

        final String field = name().toLowerCase();
    }

    private final EnumMap<Section, Map<String, String>> sections;

    private Task(EnumMap<Section, Map<String, String>> sections) {
        this.sections = sections;
    }

    public static Task empty() {
        EnumMap<Section, Map<String, String>> sections = new EnumMap<>(Section.class);
        for (Section s : Section.values()) {
            sections.put(s, Map.of());
        }
        return new Task(sections);
    }

    public static Task withMeta(Map<String, String> meta) {
        return empty().with(Section.META, meta);
    }

    public Map<String, String> get(Section section) {
        return sections.get(section);
    }

    public String label(Section section, String key) {
        return sections.get(section).get(key);
    }

    public Task with(Section section, Map<String, String> labels) {
        EnumMap<Section, Map<String, String>> copy = new EnumMap<>(sections);
        copy.put(section, Collections.unmodifiableMap(new TreeMap<>(labels)));
        return new Task(copy);
    }

    /** A copy with one label set (value non-null) or removed (value null). */
    public Task withLabel(Section section, String key, String value) {
        Map<String, String> labels = new TreeMap<>(sections.get(section));
        if (value == null) {
            labels.remove(key);
        } else {
            labels.put(key, value);
        }
        return with(section, labels);
    }

    public Map<String, String> core() {
        return get(Section.CORE);
    }

    public Map<String, String> cron() {
        return get(Section.CRON);
    }

    public Map<String, String> gate() {
        return get(Section.GATE);
    }

    public Map<String, String> meta() {
        return get(Section.META);
    }

    public Map<String, String> node() {
        return get(Section.NODE);
    }

    public Map<String, String> root() {
        return get(Section.ROOT);
    }

    public Map<String, String> sync() {
        return get(Section.SYNC);
    }

    /** The task's id (Core task.rescue.io/object), null before Create assigned one. */
    public String object() {
        return label(Section.CORE, Labels.OBJECT);
    }

    /** Templates (Cron or Gate) are never owned and never searched; they emit tasks. */
    public boolean isTemplate() {
        return !cron().isEmpty() || (!gate().isEmpty() && !gate().containsValue(Labels.TRIGGER));
    }

    /** Delivery method: any (default), all or uni. */
    public String method() {
        return node().getOrDefault(Labels.METHOD, Labels.ANY);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Task t && t.sections.equals(sections);
    }

    @Override
    public int hashCode() {
        return sections.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("Task{");
        sections.forEach((s, labels) -> {
            if (!labels.isEmpty()) {
                out.append(s.field).append('=').append(labels).append(' ');
            }
        });
        return out.append('}').toString();
    }
}
