package dev.redsim.queue.rescue;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Response;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.resps.Tuple;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The README's Engine for one worker on one Jedis connection (one engine per thread). Any number of engines,
 * threads and processes may share a queue: there is no lock. By default ({@link RescueOptions#transitions()}
 * SCRIPTS) create, search, extend, delete, expire and ticker are one Lua script each ({@link RescueScripts}), time
 * from Redis's TIME when the clock is a RedisClock; with OPTIMISTIC every transition is one WATCH / read / MULTI /
 * EXEC, retried from fresh reads when a watched key changed, time from the injected clock.
 */
public final class RescueEngine {
    private static final int BROADCAST_PAGE = 256;

    private final Jedis jedis;
    private final InstantSource clock;
    private final RescueOptions options;
    private final RescueKeys keys;
    private final TaskStore store;
    private final Templates templates;
    private final RescueScripts scripts;

    public RescueEngine(Jedis jedis, InstantSource clock, RescueOptions options) {
        this.jedis = jedis;
        this.clock = clock;
        this.options = options;
        this.keys = new RescueKeys(options.queue());
        this.store = new TaskStore(jedis, keys);
        this.templates = new Templates(jedis, store, clock, options);
        this.scripts = options.scripted() ? new RescueScripts(jedis, clock, options, keys) : null;
    }

    public String worker() {
        return options.worker();
    }

    /**
     * Submits a task or a template (a task with Cron, or with a Gate of "waiting" labels). A task whose Root
     * matches an existing task is not created.
     *
     * @return the stored task with its object id (and ticks), or empty when Root suppressed it
     */
    public Optional<Task> create(Task task) {
        Task prepared = TaskRules.prepare(task, clock.instant());
        if (scripts != null) {
            return scripts.create(List.of(prepared)).get(0);
        }
        Optional<Task> created = optimistic(() -> {
            if (templates.suppressedByRoot(prepared, null)) {
                jedis.unwatch();
                return Optional.empty();
            }
            String id = templates.nextId(prepared);
            Task stored = prepared.withLabel(Task.Section.CORE, Labels.OBJECT, id);
            Writes w = new Writes();
            templates.insert(w, id, stored);
            return w.exec(jedis) ? Optional.of(stored) : null;
        });
        return created.isPresent() ? woken(created) : created;
    }

    /**
     * Creates every task in order, as {@link #create} one by one would (a Root may match an earlier task of the
     * batch); scripted, the batch is one call. All are checked before any is stored: one invalid task creates none.
     */
    public List<Optional<Task>> createMany(List<Task> tasks) {
        List<Task> prepared = tasks.stream().map(t -> TaskRules.prepare(t, clock.instant())).toList();
        if (scripts != null) {
            return prepared.isEmpty() ? List.of() : scripts.create(prepared);
        }
        List<Optional<Task>> out = new ArrayList<>();
        for (Task t : tasks) {
            out.add(create(t));
        }
        return out;
    }

    /**
     * Tells waiting runtimes (RescueWorker) that there may be work. After the transaction, not in it: a lost
     * wake only delays a runtime until its next idle check. SPUBLISH when the queue's wake is sharded.
     */
    private <T> T woken(T value) {
        if (options.shardedWake()) {
            // Jedis 5.2's Jedis has no spublish
            jedis.sendCommand(redis.clients.jedis.Protocol.Command.SPUBLISH, keys.wake(), "1");
        } else {
            jedis.publish(keys.wake(), "1");
        }
        return value;
    }

    /**
     * Deletes a task its caller owns (or a template / broadcast task, with the bypass label). Deleting a task
     * flips the "waiting" gate labels its "trigger" labels name (firing complete gates) and carries its Sync back
     * to the template it came from.
     *
     * @throws NotOwnerException when the caller's copy is not the current ownership (stale, expired, other worker)
     */
    public void delete(Task task) {
        String id = requireObject(task);
        if (scripts != null) {
            scripts.delete(id, task);
            return;
        }
        Instant now = clock.instant();
        optimistic(() -> {
            Task stored = store.watchAndRead(id).orElseThrow(() -> new NotOwnerException("no task " + id));
            Writes w = new Writes();
            if (stored.isTemplate() || stored.method().equals(Labels.ALL)) {
                if (!"true".equals(task.core().get(Labels.BYPASS))) {
                    throw new NotOwnerException("task " + id + " is never owned: delete it with the bypass label");
                }
            } else {
                checkOwner(task, stored, now);
                templates.afterDeletion(w, stored, task.sync().isEmpty() ? stored.sync() : task.sync());
            }
            store.remove(w, id, stored);
            return w.exec(jedis) ? Boolean.TRUE : null;
        });
        woken(id); // a gate may have fired
    }

    /** Renews the caller's ownership for another lease from now. */
    public Task extend(Task task) {
        String id = requireObject(task);
        if (scripts != null) {
            return scripts.extend(id, task);
        }
        Instant now = clock.instant();
        return optimistic(() -> {
            Task stored = store.watchAndRead(id).orElseThrow(() -> new NotOwnerException("no task " + id));
            checkOwner(task, stored, now);
            Instant expiry = now.plus(options.lease());
            Task renewed = stored.withLabel(Task.Section.CORE, Labels.EXPIRY, Cron.format(expiry));
            Writes w = new Writes();
            store.write(w, id, stored, renewed);
            w.add(tx -> tx.zadd(keys.owned(), expiry.toEpochMilli(), id));
            return w.exec(jedis) ? renewed : null;
        });
    }

    /** Whether any task or template matches the query (each given section a subset, "*" a wildcard). */
    public boolean exists(Task query) {
        boolean found = store.exists(query, false, null);
        jedis.unwatch();
        return found;
    }

    /**
     * Revokes ownership whose expiry has passed (the task is available again) and deletes addressed tasks whose
     * retention passed before anyone was addressed. Reads only the due part of two zsets.
     *
     * @return how many tasks were revoked or deleted
     */
    public int expire() {
        if (scripts != null) {
            return scripts.expire();
        }
        long now = clock.millis();
        int changed = 0;
        for (String id : jedis.zrangeByScore(keys.owned(), Double.NEGATIVE_INFINITY, now)) {
            changed += optimistic(() -> revoke(id, now));
        }
        for (String id : jedis.zrangeByScore(keys.retention(), Double.NEGATIVE_INFINITY, now)) {
            changed += optimistic(() -> dropUnaddressed(id, now));
        }
        return changed > 0 ? woken(changed) : changed;
    }

    /**
     * Emits one task for every cron template whose next tick has come, and moves its ticks on. A template's tick
     * and its emission commit together (scripted: one script for all due templates, which skips a template whose
     * tick another ticker moved since it was read; optimistic: one transaction each under WATCH of the template),
     * so racing tickers emit once per tick.
     *
     * @return how many tasks were emitted
     */
    public int ticker() {
        if (scripts != null) {
            return scripts.ticker(); // the script tells the wake channel
        }
        long now = clock.millis();
        List<Tuple> due = new ArrayList<>(jedis.zrangeByScoreWithScores(keys.cron(), Double.NEGATIVE_INFINITY, now));
        due.sort(Comparator.comparingDouble(Tuple::getScore).thenComparingLong(t -> Long.parseLong(t.getElement())));
        int emitted = 0;
        for (Tuple t : due) {
            emitted += optimistic(() -> templates.tick(t.getElement()));
        }
        return emitted > 0 ? woken(emitted) : emitted;
    }

    /**
     * Gives this worker a task: first the oldest "uni" task addressed to it, then the oldest "all" task it has
     * not received yet, then the oldest available "any" task. Tasks whose Root exists are discarded on the way.
     */
    public Optional<Task> search() {
        if (scripts != null) {
            List<Task> found = scripts.search(1, BROADCAST_PAGE);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
        }
        return optimistic(() -> {
            String mine = keys.addressed(options.worker());
            String id = first(mine);
            if (id != null) {
                return own(id, mine);
            }
            String[] broadcast = firstUndelivered();
            if (broadcast != null) {
                return deliverBroadcast(broadcast[0], broadcast[1]);
            }
            id = first(keys.available());
            if (id != null) {
                return own(id, keys.available());
            }
            return Optional.empty();
        });
    }

    /**
     * Up to {@code max} tasks for this worker, each the one {@link #search} would give after the ones before it;
     * scripted, one call.
     */
    public List<Task> searchMany(int max) {
        if (scripts != null) {
            return max < 1 ? List.of() : scripts.search(max, BROADCAST_PAGE);
        }
        List<Task> found = new ArrayList<>();
        while (found.size() < max) {
            Optional<Task> one = search();
            if (one.isEmpty()) {
                break;
            }
            found.add(one.get());
        }
        return found;
    }

    /** Every task and template, oldest first (inspection and tests). */
    public List<Task> list() {
        Map<Long, Task> byId = new TreeMap<>();
        for (String id : jedis.smembers(keys.all())) {
            store.read(id).ifPresent(t -> byId.put(Long.parseLong(id), t));
        }
        return new ArrayList<>(byId.values());
    }

    private String first(String zset) {
        List<String> head = jedis.zrange(zset, 0, 0);
        return head.isEmpty() ? null : head.get(0);
    }

    /**
     * The oldest broadcast task this worker has not had, found from the worker's cursor (see
     * {@link RescueKeys#cursor}): one ZRANGEBYSCORE after it, not a look at every broadcast task. "All" tasks above
     * the cursor that the worker already had (delivered before the cursor existed) are stepped over a page at a time,
     * and the cursor moves past them, so that happens once.
     *
     * @return the id and the cursor it was found from, or null
     */
    private String[] firstUndelivered() {
        String cursorKey = keys.cursor(options.worker());
        while (true) {
            String cursor = jedis.get(cursorKey);
            String after = cursor == null ? "-inf" : "(" + cursor;
            List<String> page = jedis.zrangeByScore(keys.broadcast(), after, "+inf", 0, BROADCAST_PAGE);
            if (page.isEmpty()) {
                return null;
            }
            Pipeline p = jedis.pipelined();
            List<Response<Boolean>> delivered = new ArrayList<>(page.size());
            for (String id : page) {
                delivered.add(p.sismember(keys.deliveredTo(id), options.worker()));
            }
            p.sync();
            for (int i = 0; i < page.size(); i++) {
                if (!delivered.get(i).get()) {
                    return new String[] {page.get(i), cursor};
                }
            }
            // All had already: move the cursor past them (unless another thread of this worker moved it).
            jedis.watch(cursorKey);
            if (java.util.Objects.equals(jedis.get(cursorKey), cursor)) {
                String last = page.get(page.size() - 1);
                new Writes().add(tx -> tx.set(cursorKey, last)).exec(jedis);
            } else {
                jedis.unwatch();
            }
        }
    }

    private Optional<Task> own(String id, String from) {
        Optional<Task> found = store.watchAndRead(id);
        if (found.isEmpty() || jedis.zscore(from, id) == null) {
            jedis.unwatch();
            return null;
        }
        Task task = found.get();
        if (discardedByRoot(id, task)) {
            return null;
        }
        Instant expiry = clock.instant().plus(options.lease());
        int cycles = Integer.parseInt(task.core().getOrDefault(Labels.CYCLES, "0")) + 1;
        Task owned = task.withLabel(Task.Section.CORE, Labels.WORKER, options.worker())
                .withLabel(Task.Section.CORE, Labels.EXPIRY, Cron.format(expiry))
                .withLabel(Task.Section.CORE, Labels.CYCLES, String.valueOf(cycles));
        Writes w = new Writes();
        store.write(w, id, task, owned);
        w.add(tx -> tx.zrem(from, id)).add(tx -> tx.zrem(keys.retention(), id))
                .add(tx -> tx.zadd(keys.owned(), expiry.toEpochMilli(), id));
        return w.exec(jedis) ? Optional.of(owned) : null;
    }

    /** Delivers the "all" task to this worker and moves its cursor to it, unless the cursor moved meanwhile. */
    private Optional<Task> deliverBroadcast(String id, String cursor) {
        String cursorKey = keys.cursor(options.worker());
        jedis.watch(keys.deliveredTo(id), cursorKey);
        Optional<Task> found = store.watchAndRead(id);
        if (found.isEmpty() || jedis.sismember(keys.deliveredTo(id), options.worker())
                || !java.util.Objects.equals(jedis.get(cursorKey), cursor)) {
            jedis.unwatch();
            return null;
        }
        if (discardedByRoot(id, found.get())) {
            return null;
        }
        Writes w = new Writes().add(tx -> tx.sadd(keys.deliveredTo(id), options.worker()))
                .add(tx -> tx.set(cursorKey, id));
        return w.exec(jedis) ? Optional.of(found.get().withLabel(Task.Section.CORE, Labels.WORKER,
                options.worker())) : null;
    }

    /** README: a task whose root exists is neither processed nor kept; it is removed without gate or sync effects. */
    private boolean discardedByRoot(String id, Task task) {
        if (!templates.suppressedByRoot(task, id)) {
            return false;
        }
        Writes w = new Writes();
        store.remove(w, id, task);
        w.exec(jedis);
        return true;
    }

    private Integer revoke(String id, long now) {
        Optional<Task> found = store.watchAndRead(id);
        Double expiry = jedis.zscore(keys.owned(), id);
        if (found.isEmpty() || expiry == null || expiry > now) {
            jedis.unwatch();
            return 0;
        }
        Task task = found.get();
        Task free = task.withLabel(Task.Section.CORE, Labels.WORKER, null)
                .withLabel(Task.Section.CORE, Labels.EXPIRY, null);
        Writes w = new Writes();
        store.write(w, id, task, free);
        w.add(tx -> tx.zrem(keys.owned(), id));
        store.place(w, id, free);
        return w.exec(jedis) ? 1 : null;
    }

    private Integer dropUnaddressed(String id, long now) {
        Optional<Task> found = store.watchAndRead(id);
        Double deadline = jedis.zscore(keys.retention(), id);
        if (found.isEmpty() || deadline == null || deadline > now) {
            jedis.unwatch();
            return 0;
        }
        Writes w = new Writes();
        store.remove(w, id, found.get());
        return w.exec(jedis) ? 1 : null;
    }

    /** The caller's copy must be the current ownership: this worker, the same cycle, not expired. */
    private void checkOwner(Task caller, Task stored, Instant now) {
        String me = options.worker();
        String expiry = stored.core().get(Labels.EXPIRY);
        boolean owner = me.equals(stored.core().get(Labels.WORKER)) && me.equals(caller.core().get(Labels.WORKER))
                && stored.core().get(Labels.CYCLES).equals(caller.core().get(Labels.CYCLES))
                && expiry != null && Cron.parseTime(expiry).isAfter(now);
        if (!owner) {
            throw new NotOwnerException("task " + stored.object() + " is not owned by " + me + " in cycle "
                    + caller.core().get(Labels.CYCLES) + " (stored: " + stored.core() + ")");
        }
    }

    private static String requireObject(Task task) {
        String id = task.object();
        if (id == null) {
            throw new InvalidTaskException("the task has no " + Labels.OBJECT);
        }
        return id;
    }

    /** Runs an attempt until it commits (non-null); a thrown rescue error ends the WATCH first. */
    private <T> T optimistic(Supplier<T> attempt) {
        for (int i = 0; i < options.maxAttempts(); i++) {
            T result;
            try {
                result = attempt.get();
            } catch (RescueException e) {
                jedis.unwatch();
                throw e;
            }
            if (result != null) {
                return result;
            }
        }
        throw new RescueException("gave up after " + options.maxAttempts() + " conflicting attempts");
    }
}
