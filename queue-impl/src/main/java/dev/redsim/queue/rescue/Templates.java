package dev.redsim.queue.rescue;

import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Everything that makes one task out of another: placing a new task, cron ticks, gate cycles, Sync carried back
 * to the template, and Root suppression. Callers hold the WATCHes; this adds reads and writes to their transaction.
 */
final class Templates {
    private final Jedis jedis;
    private final TaskStore store;
    private final InstantSource clock;
    private final Duration retention;

    Templates(Jedis jedis, TaskStore store, InstantSource clock, RescueOptions options) {
        this.jedis = jedis;
        this.store = store;
        this.clock = clock;
        this.retention = options.retention();
    }

    /** True when the task (not a template) has a Root that some other task's Meta matches; WATCHes the indexes. */
    boolean suppressedByRoot(Task task, String self) {
        if (task.isTemplate() || task.root().isEmpty()) {
            return false;
        }
        return store.exists(Task.empty().with(Task.Section.META, task.root()), true, self);
    }

    /**
     * A new object id for {@code task}, inside a transaction being planned. For an "all" task the broadcast mark is
     * WATCHed first (see {@link RescueKeys#broadcastMark}): an "all" task committed meanwhile aborts this one.
     */
    String nextId(Task task) {
        if (isBroadcast(task)) {
            jedis.watch(store.keys().broadcastMark());
        }
        return String.valueOf(jedis.incr(store.keys().sequence()));
    }

    static boolean isBroadcast(Task task) {
        return !task.isTemplate() && task.method().equals(Labels.ALL);
    }

    /** Adds a new task (or template) and puts it where it is found; addressed tasks start their retention. */
    void insert(Writes w, String id, Task task) {
        store.write(w, id, null, task);
        store.place(w, id, task);
        if (isBroadcast(task)) {
            w.add(tx -> tx.set(store.keys().broadcastMark(), id));
        }
        if (!task.isTemplate() && !task.method().equals(Labels.ANY)) {
            long deadline = clock.millis() + retention.toMillis();
            w.add(tx -> tx.zadd(store.keys().retention(), deadline, id));
        }
    }

    /**
     * One due cron template: moves its ticks past now and emits its task (unless Root suppresses it).
     *
     * @return 1 when a task was emitted, 0 when not (not due any more, or suppressed), null when EXEC aborted
     */
    Integer tick(String id) {
        Optional<Task> found = store.watchAndRead(id);
        Double next = jedis.zscore(store.keys().cron(), id);
        Instant now = clock.instant();
        if (found.isEmpty() || next == null || next > now.toEpochMilli()) {
            jedis.unwatch();
            return 0;
        }
        Task template = found.get();
        Cron cron = Cron.parse(template.cron().get(Labels.EVERY));
        Task moved = template.withLabel(Task.Section.CRON, Labels.TICK_PREVIOUS, Cron.format(cron.previous(now)))
                .withLabel(Task.Section.CRON, Labels.TICK_NEXT, Cron.format(cron.next(now)));
        Writes w = new Writes();
        store.write(w, id, template, moved);
        store.place(w, id, moved);
        boolean emitted = emit(w, id, template, null, new ArrayList<>());
        return w.exec(jedis) ? (emitted ? 1 : 0) : null;
    }

    /**
     * The effects of deleting a finished task: the Sync its worker hands back (else its stored Sync) replaces its
     * origin template's Sync, and each of its
     * "trigger" gate labels flips the matching "waiting" label of every gate template to "deleted"; a template
     * whose labels are all "deleted" emits its task and resets to "waiting".
     */
    void afterDeletion(Writes w, Task deleted, Map<String, String> sync) {
        Map<String, Task> before = new TreeMap<>(Templates::byNumber);
        Map<String, Task> after = new TreeMap<>(Templates::byNumber);
        String origin = deleted.core().get(Labels.ORIGIN);
        if (origin != null && !sync.isEmpty()) {
            store.watchAndRead(origin).filter(Task::isTemplate).ifPresent(t -> {
                before.put(origin, t);
                after.put(origin, t.with(Task.Section.SYNC, sync));
            });
        }
        deleted.gate().forEach((key, value) -> {
            if (!value.equals(Labels.TRIGGER)) {
                return;
            }
            String waiting = store.keys().label(Task.Section.GATE, key, Labels.WAITING);
            jedis.watch(waiting);
            for (String id : jedis.smembers(waiting)) {
                Task current = after.get(id);
                if (current == null) {
                    current = store.watchAndRead(id).orElse(null);
                    if (current == null) {
                        continue;
                    }
                    before.put(id, current);
                }
                after.put(id, current.withLabel(Task.Section.GATE, key, Labels.DELETED));
            }
        });
        List<Task> emitted = new ArrayList<>();
        for (Map.Entry<String, Task> e : after.entrySet()) {
            Task updated = e.getValue();
            if (!updated.gate().isEmpty() && updated.gate().values().stream().allMatch(Labels.DELETED::equals)) {
                emit(w, e.getKey(), updated, deleted.object(), emitted);
                updated = updated.with(Task.Section.GATE, resetGate(updated.gate()));
            }
            store.write(w, e.getKey(), before.get(e.getKey()), updated);
        }
    }

    /**
     * Adds the template's next task (Meta, Sync, Root, Node) unless its Root exists.
     *
     * @param leaving a task this same transaction deletes (still stored until EXEC): it cannot be the Root
     * @param emitted tasks this same transaction emitted before (not stored until EXEC): they can be the Root
     */
    private boolean emit(Writes w, String templateId, Task template, String leaving, List<Task> emitted) {
        Task task = Task.empty().with(Task.Section.META, template.meta()).with(Task.Section.SYNC, template.sync())
                .with(Task.Section.ROOT, template.root()).with(Task.Section.NODE, template.node())
                .withLabel(Task.Section.CORE, Labels.ORIGIN, templateId);
        if (suppressedByRoot(task, leaving) || emitted.stream().anyMatch(e -> Labels.matches(task.root(), e.meta()))
                && !task.root().isEmpty()) {
            return false;
        }
        String id = nextId(task);
        Task stored = task.withLabel(Task.Section.CORE, Labels.OBJECT, id);
        insert(w, id, stored);
        emitted.add(stored);
        return true;
    }

    private static Map<String, String> resetGate(Map<String, String> gate) {
        Map<String, String> reset = new HashMap<>();
        gate.keySet().forEach(k -> reset.put(k, Labels.WAITING));
        return reset;
    }

    private static int byNumber(String a, String b) {
        return Long.compare(Long.parseLong(a), Long.parseLong(b));
    }

}
