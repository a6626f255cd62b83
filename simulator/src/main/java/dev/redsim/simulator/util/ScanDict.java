package dev.redsim.simulator.util;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * A hash table kept as Redis's dict.c keeps one, for the collections that SCAN, HSCAN, SSCAN and ZSCAN walk:
 * power-of-two bucket arrays of chained entries, grown when full and shrunk below a tenth full by incremental
 * rehashing (each operation moves one bucket, so no single command pays for a whole table), and walked with
 * Redis's reverse-binary cursor. A scan call therefore costs what it returns (plus the empty buckets it passes,
 * bounded by the caller), and an element present for the whole scan is returned at least once however the table
 * grows or shrinks meanwhile; elements may come twice, as in Redis.
 *
 * <p>Keys use their own {@code hashCode} and {@code equals}, spread by a mixing step so that sequential hash codes
 * fill power-of-two tables evenly. Not thread-safe: it lives on the engine thread like everything it holds.
 *
 * <p>It is a {@link Map} so that code written against maps (a keyspace, a hash's fields) can hold one. Only writes
 * move buckets from the old table to the new one; lookups never do, so a walk over the entries (iterator, forEach)
 * may look keys up as it goes (Redis gets the same from its safe iterators, which pause rehashing). A write during
 * a walk fails the walk (ConcurrentModificationException), and iterators do not remove.
 *
 * <p>A dict may keep its keys in a smaller form than the key objects ({@link KeyForm}): a keyspace of a million keys
 * then holds a million byte arrays, not a million wrappers around them, and makes a wrapper only when a key is handed
 * out (iteration, scans, random picks).
 */
public final class ScanDict<K, V> extends AbstractMap<K, V> {
    /**
     * How the entries hold their keys. {@code stored} is what an entry keeps for a key, {@code key} turns it back into
     * a key equal to the one stored, and {@code holds} compares a stored key with a key looked up, without making one.
     */
    public interface KeyForm<K> {
        Object stored(K key);

        K key(Object stored);

        boolean holds(Object stored, Object key);

        /** The hash code of the key a stored form stands for (equal to {@code key(stored).hashCode()}). */
        int hashCode(Object stored);
    }

    /** Keys kept as they are given. */
    private static final KeyForm<Object> AS_GIVEN = new KeyForm<>() {
        @Override
        public Object stored(Object key) {
            return key;
        }

        @Override
        public Object key(Object stored) {
            return stored;
        }

        @Override
        public boolean holds(Object stored, Object key) {
            return stored.equals(key);
        }

        @Override
        public int hashCode(Object stored) {
            return stored.hashCode();
        }
    };

    /** DICT_HT_INITIAL_SIZE. */
    private static final int INITIAL_SIZE = 4;
    /** HASHTABLE_MIN_FILL: below this percentage of fill a table is shrunk. */
    private static final int MIN_FILL_PERCENT = 10;
    /** How many empty buckets one rehash step may pass before it gives up for now (dictRehash's empty_visits). */
    private static final int EMPTY_VISITS = 10;

    /**
     * A chained entry; its key in the dict's {@link KeyForm}, so it is a Map.Entry only for dicts of keys as given.
     * It keeps no hash (24 bytes, not 32: a keyspace has one entry a key): as Redis's dictEntry, a rehash computes the
     * key's hash again, and a lookup compares keys.
     */
    private static final class Entry<K, V> implements Map.Entry<K, V> {
        final Object key;
        V value;
        Entry<K, V> next;

        Entry(Object key, V value, Entry<K, V> next) {
            this.key = key;
            this.value = value;
            this.next = next;
        }

        @Override
        @SuppressWarnings("unchecked")
        public K getKey() {
            return (K) key;
        }

        @Override
        public V getValue() {
            return value;
        }

        @Override
        public V setValue(V value) {
            V old = this.value;
            this.value = value;
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Map.Entry<?, ?> e && key.equals(e.getKey()) && Objects.equals(value, e.getValue());
        }

        @Override
        public int hashCode() {
            return key.hashCode() ^ Objects.hashCode(value);
        }
    }

    /** The table in use; while rehashing, the table being filled is {@link #target}. */
    private Entry<K, V>[] table;
    private Entry<K, V>[] target;
    private int usedInTable;
    private int usedInTarget;
    /** The next bucket of {@link #table} to move while rehashing, -1 otherwise. */
    private int rehashIndex = -1;
    /** Counts structural changes (entries added, removed or moved), so that a walk notices writes under it. */
    private int changes;
    private Set<Map.Entry<K, V>> entrySet;
    private final KeyForm<K> keyForm;
    private final boolean keysAsGiven;

    @SuppressWarnings("unchecked")
    public ScanDict() {
        this((KeyForm<K>) AS_GIVEN);
    }

    /** A dict that keeps its keys in the given form. */
    public ScanDict(KeyForm<K> keyForm) {
        this.table = newTable(INITIAL_SIZE);
        this.keyForm = keyForm;
        this.keysAsGiven = keyForm == AS_GIVEN;
    }

    /** An entry's key as the dict hands it out. */
    private K keyOf(Entry<K, V> e) {
        return keyForm.key(e.key);
    }

    @Override
    public int size() {
        return usedInTable + usedInTarget;
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public V get(Object key) {
        Entry<K, V> entry = find(key);
        return entry == null ? null : entry.value;
    }

    @Override
    public boolean containsKey(Object key) {
        return find(key) != null;
    }

    /** Adds or replaces; returns the value replaced, or null. */
    @Override
    public V put(K key, V value) {
        Objects.requireNonNull(key);
        rehashStep();
        int hash = hash(key);
        Entry<K, V> existing = find(key, hash);
        if (existing != null) {
            V old = existing.value;
            existing.value = value;
            return old;
        }
        expandIfNeeded();
        changes++;
        // while rehashing, new entries go to the new table, as Redis adds them (the old one only drains)
        if (target != null) {
            int i = hash & (target.length - 1);
            target[i] = new Entry<>(keyForm.stored(key), value, target[i]);
            usedInTarget++;
        } else {
            int i = hash & (table.length - 1);
            table[i] = new Entry<>(keyForm.stored(key), value, table[i]);
            usedInTable++;
        }
        return null;
    }

    /** Removes; returns the value removed, or null. */
    @Override
    public V remove(Object key) {
        rehashStep();
        int hash = hash(key);
        V removed = removeFrom(table, key, hash, false);
        if (removed == null && target != null) {
            removed = removeFrom(target, key, hash, true);
        }
        if (removed != null) {
            shrinkIfNeeded();
        }
        return removed;
    }

    @Override
    public void clear() {
        changes++;
        table = newTable(INITIAL_SIZE);
        target = null;
        usedInTable = 0;
        usedInTarget = 0;
        rehashIndex = -1;
    }

    /** Every entry, in bucket order; the action must not change the dict. */
    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        int expected = changes;
        forEachIn(table, action);
        if (target != null) {
            forEachIn(target, action);
        }
        if (changes != expected) {
            throw new ConcurrentModificationException();
        }
    }

    /** The entries in bucket order (the old table's, then the new one's while rehashing); a live view. */
    @Override
    public Set<Map.Entry<K, V>> entrySet() {
        if (entrySet == null) {
            entrySet = new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<K, V>> iterator() {
                    return new Walk();
                }

                @Override
                public int size() {
                    return ScanDict.this.size();
                }

                @Override
                public boolean contains(Object o) {
                    if (!(o instanceof Map.Entry<?, ?> e)) {
                        return false;
                    }
                    Entry<K, V> found = find(e.getKey());
                    return found != null && Objects.equals(found.value, e.getValue());
                }
            };
        }
        return entrySet;
    }

    /** An iterator over both tables' chains; fails if the dict is written meanwhile. */
    private final class Walk implements Iterator<Map.Entry<K, V>> {
        private final int expected = changes;
        private Entry<K, V>[] walking = table;
        private int bucket = -1;
        private Entry<K, V> nextEntry;

        Walk() {
            advance();
        }

        private void advance() {
            if (nextEntry != null && nextEntry.next != null) {
                nextEntry = nextEntry.next;
                return;
            }
            nextEntry = null;
            while (true) {
                bucket++;
                if (bucket == walking.length) {
                    if (walking == table && target != null) {
                        walking = target;
                        bucket = 0;
                    } else {
                        return;
                    }
                }
                if (walking[bucket] != null) {
                    nextEntry = walking[bucket];
                    return;
                }
            }
        }

        @Override
        public boolean hasNext() {
            return nextEntry != null;
        }

        @Override
        public Map.Entry<K, V> next() {
            if (changes != expected) {
                throw new ConcurrentModificationException();
            }
            if (nextEntry == null) {
                throw new NoSuchElementException();
            }
            Entry<K, V> current = nextEntry;
            advance();
            return keysAsGiven ? current : new KeyedEntry(current);
        }
    }

    /** An entry with its key turned back from the stored form; setValue writes through to the dict's entry. */
    private final class KeyedEntry extends AbstractMap.SimpleEntry<K, V> {
        private final Entry<K, V> entry;

        KeyedEntry(Entry<K, V> entry) {
            super(keyOf(entry), entry.value);
            this.entry = entry;
        }

        @Override
        public V setValue(V value) {
            super.setValue(value);
            return entry.setValue(value);
        }
    }

    /** The keys, in bucket order, as a new list. */
    public List<K> keys() {
        List<K> keys = new ArrayList<>(size());
        forEach((k, v) -> keys.add(k));
        return keys;
    }

    /**
     * One step of Redis's dictScan: hands every entry of the bucket(s) the cursor points at to {@code action} and
     * returns the next cursor, 0 when the scan is complete. While rehashing, the cursor's bucket of the smaller table
     * is visited and then every bucket of the larger table that it expands to, so nothing present is missed.
     */
    public long scan(long cursor, BiConsumer<? super K, ? super V> action) {
        long v = cursor;
        if (target == null) {
            long mask = table.length - 1;
            emit(table[(int) (v & mask)], action);
            return next(v, mask);
        }
        Entry<K, V>[] small = table.length <= target.length ? table : target;
        Entry<K, V>[] large = small == table ? target : table;
        long m0 = small.length - 1;
        long m1 = large.length - 1;
        emit(small[(int) (v & m0)], action);
        do {
            emit(large[(int) (v & m1)], action);
            v = next(v, m1);
        } while ((v & (m0 ^ m1)) != 0);
        return v;
    }

    /**
     * One call of Redis's scanGenericCommand over this dict: bucket after bucket from the cursor until at least
     * {@code count} entries came or ten times {@code count} buckets were visited (so a sparse table cannot make one
     * call long); returns the next cursor, 0 when the scan is complete.
     */
    public long scan(long cursor, long count, BiConsumer<? super K, ? super V> action) {
        long[] emitted = {0};
        BiConsumer<K, V> counting = (k, v) -> {
            emitted[0]++;
            action.accept(k, v);
        };
        long maxIterations = count > Long.MAX_VALUE / 10 ? Long.MAX_VALUE : count * 10;
        long next = cursor;
        do {
            next = scan(next, counting);
        } while (next != 0 && maxIterations-- > 0 && emitted[0] < count);
        return next;
    }

    /** A uniformly chosen non-empty bucket, then an entry of its chain (dictGetRandomKey); null when empty. */
    public K randomKey(RandomGenerator random) {
        if (isEmpty()) {
            return null;
        }
        Entry<K, V> chain;
        do {
            if (target != null) {
                // buckets below rehashIndex are empty in the old table: draw from the rest of it and the new one
                int span = table.length - rehashIndex + target.length;
                int i = rehashIndex + random.nextInt(span);
                chain = i < table.length ? table[i] : target[i - table.length];
            } else {
                chain = table[random.nextInt(table.length)];
            }
        } while (chain == null);
        int length = 0;
        for (Entry<K, V> e = chain; e != null; e = e.next) {
            length++;
        }
        int pick = random.nextInt(length);
        Entry<K, V> e = chain;
        for (int i = 0; i < pick; i++) {
            e = e.next;
        }
        return keyOf(e);
    }

    /** The number of buckets of the table in use, and of the one being filled (0 when not rehashing). */
    public int[] bucketCounts() {
        return new int[] {table.length, target == null ? 0 : target.length};
    }

    // ---- the reverse-binary cursor ----

    /** Increments the cursor's bits under {@code mask} from the top (Redis: v |= ~m; v = rev(v); v++; v = rev(v)). */
    private static long next(long v, long mask) {
        v |= ~mask;
        v = Long.reverse(v);
        v++;
        return Long.reverse(v);
    }

    private void emit(Entry<K, V> chain, BiConsumer<? super K, ? super V> action) {
        for (Entry<K, V> e = chain; e != null; e = e.next) {
            action.accept(keyOf(e), e.value);
        }
    }

    // ---- lookups ----

    /** A lookup; unlike dictFind it moves no bucket (see the class comment: walks may look keys up). */
    private Entry<K, V> find(Object key) {
        if (isEmpty()) {
            return null;
        }
        return find(key, hash(key));
    }

    private Entry<K, V> find(Object key, int hash) {
        Entry<K, V> found = findIn(table, key, hash);
        if (found == null && target != null) {
            found = findIn(target, key, hash);
        }
        return found;
    }

    private Entry<K, V> findIn(Entry<K, V>[] t, Object key, int hash) {
        for (Entry<K, V> e = t[hash & (t.length - 1)]; e != null; e = e.next) {
            if (keyForm.holds(e.key, key)) {
                return e;
            }
        }
        return null;
    }

    private V removeFrom(Entry<K, V>[] t, Object key, int hash, boolean isTarget) {
        int i = hash & (t.length - 1);
        Entry<K, V> previous = null;
        for (Entry<K, V> e = t[i]; e != null; previous = e, e = e.next) {
            if (keyForm.holds(e.key, key)) {
                if (previous == null) {
                    t[i] = e.next;
                } else {
                    previous.next = e.next;
                }
                changes++;
                if (isTarget) {
                    usedInTarget--;
                } else {
                    usedInTable--;
                }
                return e.value;
            }
        }
        return null;
    }

    private void forEachIn(Entry<K, V>[] t, BiConsumer<? super K, ? super V> action) {
        for (Entry<K, V> chain : t) {
            emit(chain, action);
        }
    }

    // ---- resizing ----

    /** _dictExpandIfNeeded: a table as full as it is long doubles (to the power of two above what it holds). */
    private void expandIfNeeded() {
        if (target == null && usedInTable >= table.length) {
            startRehash(sizeFor((long) usedInTable + 1));
        }
    }

    /** htNeedsResize and dictResize: a table under a tenth full shrinks to what it holds. */
    private void shrinkIfNeeded() {
        if (target == null && table.length > INITIAL_SIZE && (long) usedInTable * 100 / table.length < MIN_FILL_PERCENT) {
            startRehash(sizeFor(Math.max(usedInTable, INITIAL_SIZE)));
        }
    }

    private void startRehash(int size) {
        if (size == table.length) {
            return;
        }
        target = newTable(size);
        usedInTarget = 0;
        rehashIndex = 0;
    }

    /** _dictRehashStep: moves one bucket (passing at most a few empty ones) from the old table to the new. */
    private void rehashStep() {
        if (target == null) {
            return;
        }
        int emptyVisits = EMPTY_VISITS;
        while (rehashIndex < table.length && table[rehashIndex] == null) {
            rehashIndex++;
            if (--emptyVisits == 0) {
                finishIfDrained();
                return;
            }
        }
        if (rehashIndex < table.length) {
            changes++;
            Entry<K, V> e = table[rehashIndex];
            table[rehashIndex] = null;
            while (e != null) {
                Entry<K, V> next = e.next;
                int i = mix(keyForm.hashCode(e.key)) & (target.length - 1);
                e.next = target[i];
                target[i] = e;
                usedInTable--;
                usedInTarget++;
                e = next;
            }
            rehashIndex++;
        }
        finishIfDrained();
    }

    /** Once every entry of the old table has moved, the new table is the table. */
    private void finishIfDrained() {
        if (usedInTable == 0) {
            table = target;
            usedInTable = usedInTarget;
            target = null;
            usedInTarget = 0;
            rehashIndex = -1;
        }
    }

    private static int sizeFor(long entries) {
        long size = INITIAL_SIZE;
        while (size < entries) {
            size <<= 1;
        }
        return (int) Math.min(size, 1 << 30);
    }

    @SuppressWarnings("unchecked")
    private static <K, V> Entry<K, V>[] newTable(int size) {
        return (Entry<K, V>[]) new Entry[size];
    }

    /** The key's hash code, mixed (murmur3's finalizer) so that its low bits, which pick the bucket, vary. */
    private static int hash(Object key) {
        return mix(key.hashCode());
    }

    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
