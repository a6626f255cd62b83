package dev.redsim.conformance.contracts.rescue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rescue contract in memory, single-threaded: what every engine call must do, with the object ids it must
 * assign. The suite compares the implementation's stored tasks with {@link #tasks()} after every step.
 */
final class RescueModel {
    private final long leaseMillis;
    private final long retentionMillis;
    private final TreeMap<Long, RescueTask> tasks = new TreeMap<>();
    private final Map<Long, Long> ownedUntil = new HashMap<>();
    private final Map<Long, Long> retainUntil = new HashMap<>();
    private final Map<Long, Set<String>> delivered = new HashMap<>();
    private long sequence;
    private long now;
    /** How often each rule fired, for the coverage line. */
    final Map<String, Integer> coverage = new TreeMap<>();

    RescueModel(long startMillis, long leaseMillis, long retentionMillis) {
        this.now = startMillis;
        this.leaseMillis = leaseMillis;
        this.retentionMillis = retentionMillis;
    }

    List<RescueTask> tasks() {
        return new ArrayList<>(tasks.values());
    }

    RescueTask task(long id) {
        return tasks.get(id);
    }

    /** Expiry (epoch ms) of the task's ownership, or null when nobody owns it. */
    Long ownedUntil(long id) {
        return ownedUntil.get(id);
    }

    /** Retention deadline (epoch ms) of an addressed task not yet addressed, or null. */
    Long retainedUntil(long id) {
        return retainUntil.get(id);
    }

    /** Workers a broadcast task was delivered to. */
    Set<String> deliveredTo(long id) {
        return delivered.getOrDefault(id, Set.of());
    }

    void advance(long millis) {
        now += millis;
    }

    Optional<RescueTask> create(RescueTask task) {
        RescueTask prepared = task.withCore(Map.of());
        if (!task.cron().isEmpty()) {
            ModelSchedule s = ModelSchedule.of(task.cron().get(RescueTask.EVERY));
            prepared = prepared.withCron(Map.of(RescueTask.EVERY, s.expression(),
                    RescueTask.TICK_PREVIOUS, ModelSchedule.format(s.previous(now)),
                    RescueTask.TICK_NEXT, ModelSchedule.format(s.next(now))));
        }
        if (suppressedByRoot(prepared, -1)) {
            note("create suppressed by root");
            return Optional.empty();
        }
        return Optional.of(insert(prepared));
    }

    Optional<RescueTask> search(String worker) {
        while (true) {
            Long id = first(t -> t.method().equals("uni") && worker.equals(t.node().get(RescueTask.WORKER))
                    && !t.core().containsKey(RescueTask.WORKER));
            boolean broadcast = false;
            if (id == null) {
                id = first(t -> t.method().equals("all") && !delivered.get(t.id()).contains(worker));
                broadcast = id != null;
            }
            if (id == null) {
                id = first(t -> t.method().equals("any") && !t.core().containsKey(RescueTask.WORKER));
            }
            if (id == null) {
                return Optional.empty();
            }
            RescueTask task = tasks.get(id);
            if (suppressedByRoot(task, id)) {
                note("search discarded by root");
                remove(id);
                continue;
            }
            if (broadcast) {
                note("search all");
                delivered.get(id).add(worker);
                return Optional.of(task.withCoreLabel(RescueTask.WORKER, worker));
            }
            note("search " + task.method());
            int cycles = Integer.parseInt(task.core().getOrDefault(RescueTask.CYCLES, "0")) + 1;
            RescueTask owned = task.withCoreLabel(RescueTask.WORKER, worker)
                    .withCoreLabel(RescueTask.EXPIRY, ModelSchedule.format(now + leaseMillis))
                    .withCoreLabel(RescueTask.CYCLES, String.valueOf(cycles));
            tasks.put(id, owned);
            ownedUntil.put(id, now + leaseMillis);
            retainUntil.remove(id);
            return Optional.of(owned);
        }
    }

    /** @return whether the delete must be accepted (and then applies it) */
    boolean delete(RescueTask copy, String worker) {
        RescueTask stored = tasks.get(copy.id());
        if (stored == null) {
            return false;
        }
        long id = copy.id();
        if (stored.isTemplate() || stored.method().equals("all")) {
            if (!"true".equals(copy.core().get(RescueTask.BYPASS))) {
                note("delete refused: never owned, no bypass");
                return false;
            }
            note("delete with bypass");
            remove(id);
            return true;
        }
        if (!owns(copy, stored, worker)) {
            note("delete refused: not the owner");
            return false;
        }
        note("delete by owner");
        remove(id);
        afterDeletion(stored, copy.sync().isEmpty() ? stored.sync() : copy.sync());
        return true;
    }

    Optional<RescueTask> extend(RescueTask copy, String worker) {
        RescueTask stored = tasks.get(copy.id());
        if (stored == null || stored.isTemplate() || !owns(copy, stored, worker)) {
            note("extend refused");
            return Optional.empty();
        }
        note("extend");
        RescueTask renewed = stored.withCoreLabel(RescueTask.EXPIRY, ModelSchedule.format(now + leaseMillis));
        tasks.put(copy.id(), renewed);
        ownedUntil.put(copy.id(), now + leaseMillis);
        return Optional.of(renewed);
    }

    boolean exists(RescueTask query) {
        return tasks.values().stream().anyMatch(t -> LabelMatch.matches(query, t));
    }

    int expire() {
        int changed = 0;
        for (Long id : new ArrayList<>(ownedUntil.keySet())) {
            if (ownedUntil.get(id) <= now) {
                note("expire revoked");
                ownedUntil.remove(id);
                tasks.put(id, tasks.get(id).withCoreLabel(RescueTask.WORKER, null)
                        .withCoreLabel(RescueTask.EXPIRY, null));
                changed++;
            }
        }
        for (Long id : new ArrayList<>(retainUntil.keySet())) {
            if (retainUntil.get(id) <= now) {
                note("expire dropped unaddressed");
                remove(id);
                changed++;
            }
        }
        return changed;
    }

    int ticker() {
        List<long[]> due = new ArrayList<>();
        tasks.forEach((id, t) -> {
            if (!t.cron().isEmpty()) {
                long stored = parseTick(t);
                if (stored <= now) {
                    due.add(new long[] {stored, id});
                }
            }
        });
        due.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int emitted = 0;
        for (long[] d : due) {
            RescueTask template = tasks.get(d[1]);
            ModelSchedule s = ModelSchedule.of(template.cron().get(RescueTask.EVERY));
            Map<String, String> cron = new TreeMap<>(template.cron());
            cron.put(RescueTask.TICK_PREVIOUS, ModelSchedule.format(s.previous(now)));
            cron.put(RescueTask.TICK_NEXT, ModelSchedule.format(s.next(now)));
            tasks.put(d[1], template.withCron(cron));
            if (emit(d[1], template)) {
                note("ticker emitted");
                emitted++;
            }
        }
        return emitted;
    }

    private long parseTick(RescueTask template) {
        return java.time.Instant.from(java.time.format.DateTimeFormatter
                .ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(java.time.ZoneOffset.UTC)
                .parse(template.cron().get(RescueTask.TICK_NEXT))).toEpochMilli();
    }

    private void afterDeletion(RescueTask deleted, Map<String, String> sync) {
        TreeMap<Long, RescueTask> changed = new TreeMap<>();
        String origin = deleted.core().get(RescueTask.ORIGIN);
        if (origin != null && !sync.isEmpty()) {
            RescueTask template = tasks.get(Long.parseLong(origin));
            if (template != null && template.isTemplate()) {
                note("sync carried to template");
                changed.put(template.id(), template.withSync(sync));
            }
        }
        deleted.gate().forEach((key, value) -> {
            if (!value.equals("trigger")) {
                return;
            }
            tasks.forEach((id, t) -> {
                RescueTask current = changed.getOrDefault(id, t);
                if ("waiting".equals(current.gate().get(key)) && current.isTemplate()) {
                    Map<String, String> gate = new TreeMap<>(current.gate());
                    gate.put(key, "deleted");
                    note("gate flipped");
                    changed.put(id, current.withGate(gate));
                }
            });
        });
        changed.forEach((id, t) -> {
            RescueTask updated = t;
            if (!t.gate().isEmpty() && t.gate().values().stream().allMatch("deleted"::equals)) {
                note("gate fired");
                emit(id, t);
                Map<String, String> reset = new TreeMap<>();
                t.gate().keySet().forEach(k -> reset.put(k, "waiting"));
                updated = t.withGate(reset);
            }
            tasks.put(id, updated);
        });
    }

    private boolean emit(long templateId, RescueTask template) {
        RescueTask task = new RescueTask(Map.of(RescueTask.ORIGIN, String.valueOf(templateId)), Map.of(), Map.of(),
                template.meta(), template.node(), template.root(), template.sync());
        if (suppressedByRoot(task, -1)) {
            note("emission suppressed by root");
            return false;
        }
        insert(task);
        return true;
    }

    private RescueTask insert(RescueTask prepared) {
        long id = ++sequence;
        RescueTask stored = prepared.withCoreLabel(RescueTask.OBJECT, String.valueOf(id));
        tasks.put(id, stored);
        if (stored.method().equals("all") && !stored.isTemplate()) {
            delivered.put(id, new HashSet<>());
        }
        if (!stored.isTemplate() && !stored.method().equals("any")) {
            retainUntil.put(id, now + retentionMillis);
        }
        note("created " + (stored.isTemplate() ? (stored.cron().isEmpty() ? "gate template" : "cron template")
                : stored.method() + " task"));
        return stored;
    }

    private void remove(long id) {
        tasks.remove(id);
        ownedUntil.remove(id);
        retainUntil.remove(id);
        delivered.remove(id);
    }

    private boolean suppressedByRoot(RescueTask task, long self) {
        if (task.isTemplate() || task.root().isEmpty()) {
            return false;
        }
        RescueTask query = RescueTask.meta(task.root());
        return tasks.values().stream().anyMatch(t -> t.id() != self && !t.isTemplate()
                && LabelMatch.subset(query.meta(), t.meta()));
    }

    private boolean owns(RescueTask copy, RescueTask stored, String worker) {
        Long until = ownedUntil.get(stored.id());
        return until != null && until > now && worker.equals(stored.core().get(RescueTask.WORKER))
                && worker.equals(copy.core().get(RescueTask.WORKER))
                && stored.core().get(RescueTask.CYCLES).equals(copy.core().get(RescueTask.CYCLES));
    }

    private Long first(java.util.function.Predicate<RescueTask> eligible) {
        for (Map.Entry<Long, RescueTask> e : tasks.entrySet()) {
            if (!e.getValue().isTemplate() && eligible.test(e.getValue())) {
                return e.getKey();
            }
        }
        return null;
    }

    private void note(String what) {
        coverage.merge(what, 1, Integer::sum);
    }
}
