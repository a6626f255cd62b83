package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.util.ScanDict;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * One numbered database: keys to values, and keys to their expiry time in epoch milliseconds. Expired keys
 * are removed when touched (lazy expiry, as Redis's expireIfNeeded) and by the engine's active sweep.
 *
 * <p>The keys live in a {@link ScanDict}, Redis's dict with incremental rehashing, so that SCAN walks them with
 * Redis's cursor at O(COUNT) a call and RANDOMKEY picks a random bucket in O(1), whatever the keyspace's size.
 */
public final class Database {
    private final int id;
    private final KeyspaceHooks hooks;
    private ScanDict<Bytes, RedisValue> values = new ScanDict<>(Bytes.AS_ARRAY);
    private HashMap<Bytes, Long> expires = new HashMap<>();
    /**
     * Deadlines in time order, for the active sweep. Entries go stale when a key's TTL changes or goes away;
     * a stale entry is recognised (its time no longer matches {@link #expires}) and dropped when it comes up.
     */
    private PriorityQueue<Deadline> deadlines = new PriorityQueue<>();

    private record Deadline(long when, Bytes key) implements Comparable<Deadline> {
        @Override
        public int compareTo(Deadline other) {
            return Long.compare(when, other.when);
        }
    }
    /** False while a NO-TOUCH client runs a command: its lookups leave access times alone. */
    private boolean touching = true;
    /** The bytes the stored keys and values account for (see {@link #footprint}), kept up to date on every write. */
    private long dataBytes;
    /** Random access to the keys with a TTL (the expires table is a HashMap; the keys themselves sample their dict). */
    private KeySampler volatileKeys = new KeySampler();
    private long hits;
    private long misses;
    /**
     * The keys of the write command under way in this database whose measuring waits for the call's end: the
     * arguments {@code deferredArgs[deferredFirst..deferredLast]} by steps of {@code deferredStep} (the very arrays of
     * the call's arguments, compared by identity), or none when deferredArgs is null. The command's call measures them
     * once when it ends, so a store or a change signalled before then leaves the measuring to it: one measurement per
     * written key and call, however many steps the command takes (MSET of the same key ten times measured it thirty
     * times). The caller keeps the span small (CommandProcessor), so the identity test stays O(1).
     */
    private byte[][] deferredArgs;
    private int deferredFirst;
    private int deferredLast;
    private int deferredStep = 1;
    /** Where among the deferred keys the last one asked for was (see {@link #deferred}). */
    private int deferredHint;

    /** The measuring a call around the current one had deferred (calls nest: EXEC, scripts), to be given back. */
    public record Deferral(byte[][] args, int first, int last, int step) {
    }
    /** The keys by hash slot, on a cluster node's database 0 only (null otherwise: nothing to keep). */
    private SlotIndex slotIndex;

    /** @param hooks the engine: its clock, and what it hears of expired, missed, added and touched keys */
    public Database(int id, KeyspaceHooks hooks) {
        this.id = id;
        this.hooks = hooks;
    }

    public int id() {
        return id;
    }

    /** Keeps this database's keys by hash slot from now on (a cluster node's database; it starts empty). */
    public SlotIndex indexSlots() {
        if (slotIndex == null) {
            slotIndex = new SlotIndex();
            values.keySet().forEach(slotIndex::added);
        }
        return slotIndex;
    }

    public long now() {
        return hooks.clockMillis();
    }

    /** Whether a key whose time to live ends at {@code epochMillis} has expired (Redis's keyIsExpired). */
    public boolean expired(long epochMillis) {
        return epochMillis <= hooks.expiryMillis();
    }

    // ---- lookups ----

    /** The value under key, or null; an expired key is deleted first. Does not count hits; updates the access time. */
    public RedisValue get(Bytes key) {
        RedisValue value = peek(key);
        if (value != null && touching) {
            value.accessedAt(now());
            hooks.accessed(value);
        }
        return value;
    }

    /** As {@link #get(Bytes)} without updating the access time (OBJECT, like Redis's LOOKUP_NOTOUCH). */
    public RedisValue peek(Bytes key) {
        if (!expires.isEmpty()) {
            expireIfNeeded(key);
        }
        return values.get(key);
    }

    /** Whether lookups update access times (off for clients in CLIENT NO-TOUCH mode). */
    public void touching(boolean enabled) {
        this.touching = enabled;
    }

    /** Milliseconds since the key was last accessed (the caller checks existence first). */
    public long idleMillis(Bytes key) {
        RedisValue value = values.get(key);
        return value == null ? 0 : Math.max(0, now() - value.accessedAt());
    }

    /** A lookup for a read command: counts keyspace hits and misses as Redis's lookupKeyRead does. */
    public RedisValue getForRead(Bytes key) {
        return countRead(key, get(key), true);
    }

    /** A read that counts hits and misses but leaves the access time (EXISTS, TYPE, TTL, OBJECT: LOOKUP_NOTOUCH). */
    public RedisValue peekForRead(Bytes key) {
        return countRead(key, peek(key), true);
    }

    /** As {@link #peekForRead(Bytes)} without the "keymiss" event (OBJECT: Redis's LOOKUP_NONOTIFY). */
    public RedisValue peekForReadNoNotify(Bytes key) {
        return countRead(key, peek(key), false);
    }

    /** Counts a read as a keyspace hit or miss; a miss is reported ("keymiss") unless told not to. */
    private RedisValue countRead(Bytes key, RedisValue value, boolean reportMiss) {
        if (value != null) {
            hits++;
            return value;
        }
        misses++;
        if (reportMiss) {
            hooks.missed(this, key);
        }
        return null;
    }

    public boolean exists(Bytes key) {
        return get(key) != null;
    }

    /** The value if it has the wanted type, null if absent, WRONGTYPE otherwise. */
    public <T extends RedisValue> T get(Bytes key, Class<T> type) {
        return checkType(get(key), type);
    }

    /** As {@link #get(Bytes, Class)}, counting keyspace hits and misses. */
    public <T extends RedisValue> T getForRead(Bytes key, Class<T> type) {
        return checkType(getForRead(key), type);
    }

    private static <T extends RedisValue> T checkType(RedisValue value, Class<T> type) {
        if (value == null) {
            return null;
        }
        if (!type.isInstance(value)) {
            throw RedisError.WRONGTYPE;
        }
        return type.cast(value);
    }

    // ---- writes ----

    /** Stores a value and forgets any TTL the key had (Redis's setKey without KEEPTTL). */
    public void put(Bytes key, RedisValue value) {
        store(key, value);
        if (!expires.isEmpty()) {
            expires.remove(key);
        }
    }

    /** Stores a value and keeps the key's TTL (used by commands that modify a value in place or KEEPTTL). */
    public void putKeepTtl(Bytes key, RedisValue value) {
        store(key, value);
    }

    private void store(Bytes key, RedisValue value) {
        AccessTracked tracked = (AccessTracked) value;
        long now = now();
        tracked.startLfuClock(now);
        RedisValue old = values.put(key, value);
        if (old != null) {
            dataBytes -= ((AccessTracked) old).accountedBytes();
            if (old != value) {
                tracked.inheritLfu((AccessTracked) old);
            }
        }
        account(key, tracked);
        if (old == null) {
            hooks.added(this, key);
            if (slotIndex != null) {
                slotIndex.added(key);
            }
        }
        value.accessedAt(now);
    }

    private void account(Bytes key, AccessTracked value) {
        if (deferred(key.bytes())) {
            value.accountedBytes(0); // counted when the call ends (callEnded, then remeasure); until then it counts nothing
            return;
        }
        long bytes = footprint(key, (RedisValue) value);
        value.accountedBytes(bytes);
        dataBytes += bytes;
    }

    /** What a key costs Redis: its sds in a dict entry of the keyspace, and its value. */
    private static long footprint(Bytes key, RedisValue value) {
        return MemoryLayout.sds(key.length()) + MemoryLayout.DICT_ENTRY + value.trackedBytes();
    }

    /**
     * Measures a key's value again after a command changed it in place (a push, HSET, APPEND...), so that
     * used_memory follows; costs what {@link RedisValue#trackedBytes} costs. Nothing when the key is gone.
     */
    public void remeasure(Bytes key) {
        if (!deferred(key.bytes())) {
            measure(key);
        }
    }

    /** Whether the key is one whose measuring waits for the end of the call under way ({@link #deferredArgs}). */
    private boolean deferred(byte[] key) {
        byte[][] args = deferredArgs;
        if (args == null) {
            return false;
        }
        // commands store and signal their keys in argument order (MSET): the last match or the next one answers
        int hint = deferredHint;
        if (args[hint] == key) {
            return true;
        }
        if (hint + deferredStep <= deferredLast && args[hint + deferredStep] == key) {
            deferredHint = hint + deferredStep;
            return true;
        }
        for (int i = deferredFirst; i <= deferredLast; i += deferredStep) {
            if (args[i] == key) {
                deferredHint = i;
                return true;
            }
        }
        return false;
    }

    /**
     * Hands the measuring of a write command's keys {@code args[first..last]} (every {@code step}-th; null args for
     * none) to the end of its call ({@link #deferredArgs}), which gives it back with {@link #callEnded} and then
     * measures the call's keys with {@link #remeasure}. Returns what a call around this one had handed over (calls
     * nest: EXEC, scripts), for callEnded: null when nothing was (the outermost call's case, without allocating).
     */
    public Deferral measureAtCallEnd(byte[][] args, int first, int last, int step) {
        Deferral outer = deferredArgs == null ? null
                : new Deferral(deferredArgs, deferredFirst, deferredLast, deferredStep);
        deferredArgs = args;
        deferredFirst = first;
        deferredLast = last;
        deferredStep = step;
        deferredHint = first;
        return outer;
    }

    /** The call that {@link #measureAtCallEnd} began ended: its keys are measured as any other from now on. */
    public void callEnded(Deferral outer) {
        if (outer == null) {
            deferredArgs = null;
        } else {
            deferredArgs = outer.args();
            deferredFirst = outer.first();
            deferredLast = outer.last();
            deferredStep = outer.step();
            deferredHint = outer.first();
        }
    }

    private void measure(Bytes key) {
        RedisValue value = values.get(key);
        if (value != null) {
            AccessTracked tracked = (AccessTracked) value;
            dataBytes -= tracked.accountedBytes();
            account(key, tracked);
        }
    }

    public boolean delete(Bytes key) {
        RedisValue removed = values.remove(key);
        if (removed == null) {
            return false;
        }
        dataBytes -= ((AccessTracked) removed).accountedBytes();
        if (slotIndex != null) {
            slotIndex.removed(key);
        }
        if (!expires.isEmpty()) {
            expires.remove(key);
        }
        return true;
    }

    /** Removes the key if its aggregate value became empty (Redis deletes empty lists, sets, hashes, zsets). */
    public void deleteIfEmpty(Bytes key, boolean empty) {
        if (empty) {
            delete(key);
        }
    }

    public void clear() {
        if (slotIndex != null) {
            slotIndex.clear();
        }
        values = new ScanDict<>(Bytes.AS_ARRAY);
        expires = new HashMap<>();
        deadlines = new PriorityQueue<>();
        dataBytes = 0;
        volatileKeys = new KeySampler();
    }

    /** Swaps the whole content with another database (SWAPDB). */
    public void swapContents(Database other) {
        ScanDict<Bytes, RedisValue> v = values;
        HashMap<Bytes, Long> e = expires;
        PriorityQueue<Deadline> d = deadlines;
        values = other.values;
        expires = other.expires;
        deadlines = other.deadlines;
        other.values = v;
        other.expires = e;
        other.deadlines = d;
        long bytes = dataBytes;
        dataBytes = other.dataBytes;
        other.dataBytes = bytes;
        KeySampler withTtl = volatileKeys;
        volatileKeys = other.volatileKeys;
        other.volatileKeys = withTtl;
    }

    // ---- expiry ----

    /** Expiry time in epoch ms, or -1 when the key has none (the caller checks existence first). */
    public long expireAt(Bytes key) {
        Long when = expires.get(key);
        return when == null ? -1 : when;
    }

    public void setExpire(Bytes key, long epochMillis) {
        if (expires.put(key, epochMillis) == null) {
            volatileKeys.added(key, expires);
        }
        deadlines.add(new Deadline(epochMillis, key));
        if (deadlines.size() > 2 * expires.size() + 1024) {
            compactDeadlines();
        }
    }

    /** Drops stale deadlines, so keys whose TTL is rewritten often do not grow the queue without bound. */
    private void compactDeadlines() {
        PriorityQueue<Deadline> fresh = new PriorityQueue<>(Math.max(16, expires.size()));
        expires.forEach((key, when) -> fresh.add(new Deadline(when, key)));
        deadlines = fresh;
    }

    public boolean persist(Bytes key) {
        return expires.remove(key) != null;
    }

    /** True when the key exists with a TTL that has passed; deletes it and reports the expiry. */
    public boolean expireIfNeeded(Bytes key) {
        Long when = expires.get(key);
        if (when == null || !expired(when)) {
            return false;
        }
        RedisValue removed = values.remove(key);
        if (removed != null) {
            dataBytes -= ((AccessTracked) removed).accountedBytes();
        }
        expires.remove(key);
        if (slotIndex != null) {
            slotIndex.removed(key);
        }
        hooks.expired(this, key);
        return true;
    }

    /**
     * Active expiry: removes keys whose time has passed, in deadline order, at most {@code limit} of them (so
     * one sweep cannot stall the server); returns how many expired. Unlike Redis's random sampling this finds
     * every due key, so expiry events from the sweep do not depend on luck.
     */
    public int sweepExpired(int limit) {
        long now = now();
        int expired = 0;
        while (expired < limit && !deadlines.isEmpty() && deadlines.peek().when() <= now) {
            Deadline d = deadlines.poll();
            Long current = expires.get(d.key());
            if (current != null && current == d.when() && expireIfNeeded(d.key())) {
                expired++;
            }
        }
        return expired;
    }

    /** Removes every key whose time has passed (used when a test advances the clock). */
    public int sweepAllExpired() {
        return sweepExpired(Integer.MAX_VALUE);
    }

    // ---- memory and eviction ----

    /**
     * The bytes this database accounts for in used_memory: every key and value, the expires entries, and both
     * dicts' bucket arrays. O(1).
     */
    public long usedBytes() {
        return dataBytes + (long) expires.size() * MemoryLayout.DICT_ENTRY
                + 8 * (MemoryLayout.slots(values.size()) + (expires.isEmpty() ? 0 : MemoryLayout.slots(expires.size())));
    }

    /**
     * What {@link #usedBytes} would be if every key were measured now: O(keys), for checks that the running figure
     * is right (tests), never on a command's path.
     */
    public long recountedBytes() {
        long bytes = 0;
        for (Map.Entry<Bytes, RedisValue> e : values.entrySet()) {
            bytes += footprint(e.getKey(), e.getValue());
        }
        return bytes + (long) expires.size() * MemoryLayout.DICT_ENTRY
                + 8 * (MemoryLayout.slots(values.size()) + (expires.isEmpty() ? 0 : MemoryLayout.slots(expires.size())));
    }

    /** Up to {@code count} keys for eviction to weigh: from all keys, or only from those with a TTL. */
    public java.util.List<Bytes> sampleKeys(int count, boolean volatileOnly, java.util.Random random) {
        if (volatileOnly) {
            return volatileKeys.sample(count, expires, random);
        }
        // As dictGetSomeKeys: a table no bigger than the sample is taken whole; otherwise random picks (which may
        // repeat, as Redis's may), each O(1) on average from the dict's buckets.
        java.util.List<Bytes> picked = new java.util.ArrayList<>(Math.min(count, values.size()));
        if (values.size() <= count) {
            picked.addAll(values.keySet());
            return picked;
        }
        for (int i = 0; i < count; i++) {
            picked.add(values.randomKey(random));
        }
        return picked;
    }

    /** One random key (allkeys-random, volatile-random), or null. */
    public Bytes randomKey(boolean volatileOnly, java.util.Random random) {
        return volatileOnly ? volatileKeys.pick(expires, random) : values.randomKey(random);
    }

    /** The stored value without expiring or touching anything (eviction looks at keys as they are stored). */
    public RedisValue stored(Bytes key) {
        return values.get(key);
    }

    // ---- iteration and stats ----

    /**
     * One SCAN call over the stored keys (expired ones included, as Redis's dictScan sees them: the caller filters):
     * buckets from the cursor on until about {@code count} keys came; returns the next cursor, 0 at the end.
     */
    public long scan(long cursor, long count, java.util.function.Consumer<Bytes> action) {
        return values.scan(cursor, count, (key, value) -> action.accept(key));
    }

    /**
     * A random stored key (dictGetRandomKey: a random bucket, then a place in its chain), expired or not, O(1) on
     * average; null when the database is empty. RANDOMKEY checks expiry itself, as dbRandomKey does.
     */
    public Bytes randomStoredKey(java.util.random.RandomGenerator random) {
        return values.randomKey(random);
    }

    /** Live view of the keys (including expired ones not yet removed, as Redis's dict). */
    public Set<Bytes> keys() {
        return java.util.Collections.unmodifiableSet(values.keySet());
    }

    public Map<Bytes, RedisValue> entries() {
        return java.util.Collections.unmodifiableMap(values);
    }

    public int size() {
        return values.size();
    }

    public int expiresCount() {
        return expires.size();
    }

    /** Average TTL in ms of keys with an expiry, for INFO keyspace avg_ttl. */
    public long averageTtl() {
        if (expires.isEmpty()) {
            return 0;
        }
        long now = now();
        long sum = 0;
        for (long when : expires.values()) {
            sum += Math.max(0, when - now);
        }
        return sum / expires.size();
    }

    public long hits() {
        return hits;
    }

    public long misses() {
        return misses;
    }

    public void resetStats() {
        hits = 0;
        misses = 0;
    }
}
