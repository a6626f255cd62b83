package dev.redsim.queue.rescue;

import redis.clients.jedis.Jedis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Tasks as Redis hashes plus their indexes. Reads go straight to Redis (callers WATCH first); writes are added
 * to a {@link Writes} so that a task and all its index entries change in one transaction.
 */
final class TaskStore {
    private final Jedis jedis;
    private final RescueKeys keys;

    TaskStore(Jedis jedis, RescueKeys keys) {
        this.jedis = jedis;
        this.keys = keys;
    }

    RescueKeys keys() {
        return keys;
    }

    /** WATCHes the task's hash and reads it; empty when it does not exist. */
    Optional<Task> watchAndRead(String id) {
        jedis.watch(keys.task(id));
        return read(id);
    }

    Optional<Task> read(String id) {
        Map<String, String> hash = jedis.hgetAll(keys.task(id));
        return hash.isEmpty() ? Optional.empty() : Optional.of(decode(hash));
    }

    /** Stores {@code next} over {@code old} (null: new task), keeping the label indexes in step. */
    void write(Writes w, String id, Task old, Task next) {
        String hash = keys.task(id);
        Map<String, String> before = old == null ? Map.of() : encode(old);
        Map<String, String> after = encode(next);
        List<String> gone = new ArrayList<>();
        Map<String, String> changed = new HashMap<>();
        before.forEach((f, v) -> {
            if (!after.containsKey(f)) {
                gone.add(f);
            }
        });
        after.forEach((f, v) -> {
            if (!v.equals(before.get(f))) {
                changed.put(f, v);
            }
        });
        if (!gone.isEmpty()) {
            w.add(tx -> tx.hdel(hash, gone.toArray(String[]::new)));
        }
        if (!changed.isEmpty()) {
            w.add(tx -> tx.hset(hash, changed));
        }
        if (old == null) {
            w.add(tx -> tx.sadd(keys.all(), id));
        }
        for (Task.Section s : Task.Section.values()) {
            Map<String, String> was = old == null ? Map.of() : old.get(s);
            Map<String, String> is = next.get(s);
            was.forEach((k, v) -> {
                if (!v.equals(is.get(k))) {
                    w.add(tx -> tx.srem(keys.label(s, k, v), id));
                }
                if (!is.containsKey(k)) {
                    w.add(tx -> tx.srem(keys.labelKey(s, k), id));
                }
            });
            is.forEach((k, v) -> {
                if (!v.equals(was.get(k))) {
                    w.add(tx -> tx.sadd(keys.label(s, k, v), id));
                }
                if (!was.containsKey(k)) {
                    w.add(tx -> tx.sadd(keys.labelKey(s, k), id));
                }
            });
        }
    }

    /** Removes the task, its index entries and its membership in every state set. */
    void remove(Writes w, String id, Task old) {
        w.add(tx -> tx.del(keys.task(id), keys.deliveredTo(id)));
        w.add(tx -> tx.srem(keys.all(), id));
        for (Task.Section s : Task.Section.values()) {
            old.get(s).forEach((k, v) -> w.add(tx -> tx.srem(keys.label(s, k, v), id))
                    .add(tx -> tx.srem(keys.labelKey(s, k), id)));
        }
        for (String state : List.of(keys.available(), keys.broadcast(), keys.owned(), keys.cron(), keys.retention())) {
            w.add(tx -> tx.zrem(state, id));
        }
        String addressee = old.node().get(Labels.WORKER);
        if (addressee != null) {
            w.add(tx -> tx.zrem(keys.addressed(addressee), id));
        }
    }

    /**
     * Puts an unowned task where its kind is found: cron templates by next tick, "all" and "uni" tasks in their
     * delivery sets, everything else in the available set. Gate templates need no set (their labels index them).
     */
    void place(Writes w, String id, Task task) {
        double score = Double.parseDouble(id);
        if (!task.cron().isEmpty()) {
            long next = Cron.parseTime(task.cron().get(Labels.TICK_NEXT)).toEpochMilli();
            w.add(tx -> tx.zadd(keys.cron(), next, id));
        } else if (task.isTemplate()) {
            return;
        } else if (task.method().equals(Labels.ALL)) {
            w.add(tx -> tx.zadd(keys.broadcast(), score, id));
        } else if (task.method().equals(Labels.UNI)) {
            w.add(tx -> tx.zadd(keys.addressed(task.node().get(Labels.WORKER)), score, id));
        } else {
            w.add(tx -> tx.zadd(keys.available(), score, id));
        }
    }

    /**
     * Whether a task matches the query (every non-empty query section a wildcard subset of the task's). The index
     * sets that narrow the search are WATCHed, so a transaction relying on the answer aborts when a matching task
     * appears or disappears meanwhile.
     *
     * @param skipTemplates match tasks only (Root), not templates
     * @param except        an id never to match (the task asking), or null
     */
    boolean exists(Task query, boolean skipTemplates, String except) {
        List<String> narrowing = new ArrayList<>();
        for (Task.Section s : Task.Section.values()) {
            query.get(s).forEach((k, v) -> {
                if (!k.equals(Labels.WILDCARD)) {
                    narrowing.add(v.equals(Labels.WILDCARD) ? keys.labelKey(s, k) : keys.label(s, k, v));
                }
            });
        }
        if (narrowing.isEmpty()) {
            narrowing.add(keys.all());
        }
        jedis.watch(narrowing.toArray(String[]::new));
        Set<String> candidates = jedis.sinter(narrowing.toArray(String[]::new));
        for (String id : candidates) {
            if (id.equals(except)) {
                continue;
            }
            Optional<Task> task = read(id);
            if (task.isPresent() && !(skipTemplates && task.get().isTemplate()) && matches(query, task.get())) {
                return true;
            }
        }
        return false;
    }

    static boolean matches(Task query, Task task) {
        for (Task.Section s : Task.Section.values()) {
            if (!Labels.matches(query.get(s), task.get(s))) {
                return false;
            }
        }
        return true;
    }

    static Map<String, String> encode(Task task) {
        Map<String, String> hash = new HashMap<>();
        for (Task.Section s : Task.Section.values()) {
            task.get(s).forEach((k, v) -> hash.put(s.field + ":" + k, v));
        }
        return hash;
    }

    static Task decode(Map<String, String> hash) {
        Map<Task.Section, Map<String, String>> sections = new HashMap<>();
        hash.forEach((field, value) -> {
            int colon = field.indexOf(':');
            Task.Section s = Task.Section.valueOf(field.substring(0, colon).toUpperCase());
            sections.computeIfAbsent(s, x -> new HashMap<>()).put(field.substring(colon + 1), value);
        });
        Task task = Task.empty();
        for (Map.Entry<Task.Section, Map<String, String>> e : sections.entrySet()) {
            task = task.with(e.getKey(), e.getValue());
        }
        return task;
    }
}
