package dev.redsim.simulator.keyspace;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The fields of a listpack-encoded hash, packed as Redis's listpack packs them: one array of field and value bytes
 * side by side, in insertion order (the order a listpack replies in), an update keeping its field's place and a
 * removal closing the gap. A lookup walks the pairs, as lpFind walks a listpack: O(N), which
 * hash-max-listpack-entries bounds, and the reason Redis converts big hashes to a dict.
 *
 * <p>Against the LinkedHashMap it replaces, a hash of 5 small fields takes about 150 bytes of heap instead of about
 * 600 (no map entry, no Bytes wrapper per field, no bucket array); a wrapper is made when a field is handed out.
 */
final class ListpackPairs extends AbstractMap<Bytes, byte[]> {
    /** Field bytes at even indexes, the value's at the next odd one; only the first {@code 2 * size} count. */
    private byte[][] pairs;
    private int size;
    /** Counts additions and removals, so that a walk notices writes under it. */
    private int changes;
    private Set<Map.Entry<Bytes, byte[]>> entrySet;

    ListpackPairs() {
        this.pairs = new byte[4][];
    }

    @Override
    public int size() {
        return size;
    }

    private int indexOf(Object field) {
        if (!(field instanceof Bytes b)) {
            return -1;
        }
        byte[] wanted = b.bytes();
        for (int i = 0; i < 2 * size; i += 2) {
            if (Arrays.equals(pairs[i], wanted)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public byte[] get(Object field) {
        int at = indexOf(field);
        return at < 0 ? null : pairs[at + 1];
    }

    @Override
    public boolean containsKey(Object field) {
        return indexOf(field) >= 0;
    }

    /** Replaces the value in its place, or appends the pair; returns the value replaced, or null. */
    @Override
    public byte[] put(Bytes field, byte[] value) {
        int at = indexOf(field);
        if (at >= 0) {
            byte[] old = pairs[at + 1];
            pairs[at + 1] = value;
            return old;
        }
        if (2 * size + 2 > pairs.length) {
            // half again as much room: amortized O(1) appends with at most a third of the array spare
            pairs = Arrays.copyOf(pairs, Math.max(4, pairs.length + (pairs.length >> 1) + 1 & ~1));
        }
        pairs[2 * size] = field.bytes();
        pairs[2 * size + 1] = value;
        size++;
        changes++;
        return null;
    }

    @Override
    public byte[] remove(Object field) {
        int at = indexOf(field);
        if (at < 0) {
            return null;
        }
        byte[] old = pairs[at + 1];
        System.arraycopy(pairs, at + 2, pairs, at, 2 * size - at - 2);
        size--;
        pairs[2 * size] = null;
        pairs[2 * size + 1] = null;
        changes++;
        return old;
    }

    @Override
    public void clear() {
        pairs = new byte[4][];
        size = 0;
        changes++;
    }

    /** The pairs in order; an entry's setValue writes through. Iterators do not remove. */
    @Override
    public Set<Map.Entry<Bytes, byte[]>> entrySet() {
        if (entrySet == null) {
            entrySet = new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<Bytes, byte[]>> iterator() {
                    return new Walk();
                }

                @Override
                public int size() {
                    return size;
                }
            };
        }
        return entrySet;
    }

    private final class Walk implements Iterator<Map.Entry<Bytes, byte[]>> {
        private final int expected = changes;
        private int next;

        @Override
        public boolean hasNext() {
            return next < size;
        }

        @Override
        public Map.Entry<Bytes, byte[]> next() {
            if (changes != expected) {
                throw new ConcurrentModificationException();
            }
            if (next >= size) {
                throw new NoSuchElementException();
            }
            int at = 2 * next++;
            return new AbstractMap.SimpleEntry<>(Bytes.wrap(pairs[at]), pairs[at + 1]) {
                @Override
                public byte[] setValue(byte[] value) {
                    pairs[at + 1] = value;
                    return super.setValue(value);
                }
            };
        }
    }
}
