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
 * The fields of a listpack-encoded hash, packed as Redis's listpack packs them: one byte array holding every field and
 * value back to back, each behind its length, in insertion order (the order a listpack replies in), an update keeping
 * its field's place and a removal closing the gap. A lookup walks the entries, as lpFind walks a listpack: O(N), which
 * hash-max-listpack-entries bounds, and the reason Redis converts big hashes to a dict. A write makes a new array of
 * the exact size, as a listpack's realloc does, so nothing stands spare.
 *
 * <p>Against the LinkedHashMap it replaces, a hash of 5 small fields takes about 130 bytes of heap instead of about
 * 600 (no map entry, no Bytes wrapper and no array per field or value, no bucket array); a read copies the value out,
 * and a walk makes a Bytes and a value array per pair it hands out. Entries handed out are read-only.
 */
final class ListpackPairs extends AbstractMap<Bytes, byte[]> {
    private static final byte[] EMPTY = new byte[0];
    /** Entries of up to this length have a one-byte length; longer ones four bytes with the top bit set. */
    private static final int SHORT_LIMIT = 0x7f;

    private byte[] packed = EMPTY;
    private int size;
    /** Counts writes (a changed value moves what follows it), so that a walk notices writes under it. */
    private int changes;
    private Set<Map.Entry<Bytes, byte[]>> entrySet;
    /**
     * What the entries take in Redis's listpack, kept up to date by every write (the entries it removes and adds),
     * so that measuring the hash after each write is O(1): re-reading every entry cost a fifth of HSET / HDEL in
     * the queue scripts' profile.
     */
    private long entryBytes;

    @Override
    public int size() {
        return size;
    }

    // ---- the packed entries ----

    private int headerAt(int at) {
        return (packed[at] & 0x80) == 0 ? 1 : 4;
    }

    private int lengthAt(int at) {
        if ((packed[at] & 0x80) == 0) {
            return packed[at];
        }
        return (packed[at] & 0x7f) << 24 | (packed[at + 1] & 0xff) << 16 | (packed[at + 2] & 0xff) << 8
                | (packed[at + 3] & 0xff);
    }

    /** Where the bytes of the entry at {@code at} start. */
    private int dataAt(int at) {
        return at + headerAt(at);
    }

    /** Where the entry after the one at {@code at} starts. */
    private int after(int at) {
        return dataAt(at) + lengthAt(at);
    }

    private static int encodedLength(byte[] bytes) {
        return (bytes.length <= SHORT_LIMIT ? 1 : 4) + bytes.length;
    }

    private static int encode(byte[] bytes, byte[] into, int at) {
        int n = bytes.length;
        if (n <= SHORT_LIMIT) {
            into[at++] = (byte) n;
        } else {
            into[at++] = (byte) (0x80 | n >>> 24);
            into[at++] = (byte) (n >>> 16);
            into[at++] = (byte) (n >>> 8);
            into[at++] = (byte) n;
        }
        System.arraycopy(bytes, 0, into, at, n);
        return at + n;
    }

    /** Replaces the bytes from {@code from} to {@code to} with the given entries, encoded, in a new array. */
    private void splice(int from, int to, byte[]... entries) {
        int added = 0;
        for (byte[] e : entries) {
            added += encodedLength(e);
        }
        entryBytes -= entryBytesBetween(from, to);
        for (byte[] e : entries) {
            entryBytes += MemoryLayout.listpackEntry(e);
        }
        byte[] next = new byte[packed.length - (to - from) + added];
        System.arraycopy(packed, 0, next, 0, from);
        int at = from;
        for (byte[] e : entries) {
            at = encode(e, next, at);
        }
        System.arraycopy(packed, to, next, at, packed.length - to);
        packed = next;
        changes++;
    }

    /** Where the field's entry starts, or -1. */
    private int indexOf(Object field) {
        if (!(field instanceof Bytes b)) {
            return -1;
        }
        byte[] wanted = b.bytes();
        int at = 0;
        for (int i = 0; i < size; i++) {
            int data = dataAt(at);
            int end = data + lengthAt(at);
            if (Arrays.equals(packed, data, end, wanted, 0, wanted.length)) {
                return at;
            }
            at = after(end);
        }
        return -1;
    }

    private byte[] bytesAt(int at) {
        int data = dataAt(at);
        return Arrays.copyOfRange(packed, data, data + lengthAt(at));
    }

    /** What the entries take in Redis's listpack, each field and value as listpackEntry counts it. */
    long listpackEntryBytes() {
        return entryBytes;
    }

    /** What the packed entries from {@code from} to {@code to} take in Redis's listpack. */
    private long entryBytesBetween(int from, int to) {
        long bytes = 0;
        int at = from;
        while (at < to) {
            int data = dataAt(at);
            int length = lengthAt(at);
            bytes += MemoryLayout.listpackEntry(packed, data, length);
            at = data + length;
        }
        return bytes;
    }

    // ---- the map ----

    @Override
    public byte[] get(Object field) {
        int at = indexOf(field);
        return at < 0 ? null : bytesAt(after(at));
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
            int valueAt = after(at);
            byte[] old = bytesAt(valueAt);
            splice(valueAt, after(valueAt), value);
            return old;
        }
        splice(packed.length, packed.length, field.bytes(), value);
        size++;
        return null;
    }

    /**
     * As {@link #put} without copying out the value replaced (HSET only asks whether there was one); a value of the
     * same length is written over the old one in place, as lpReplace does for an entry of the same size. True when
     * the field existed.
     */
    boolean set(Bytes field, byte[] value) {
        int at = indexOf(field);
        if (at < 0) {
            splice(packed.length, packed.length, field.bytes(), value);
            size++;
            return false;
        }
        int valueAt = after(at);
        if (lengthAt(valueAt) == value.length) {
            entryBytes += MemoryLayout.listpackEntry(value) - entryBytesBetween(valueAt, after(valueAt));
            System.arraycopy(value, 0, packed, dataAt(valueAt), value.length);
            changes++;
        } else {
            splice(valueAt, after(valueAt), value);
        }
        return true;
    }

    @Override
    public byte[] remove(Object field) {
        int at = indexOf(field);
        if (at < 0) {
            return null;
        }
        int valueAt = after(at);
        byte[] old = bytesAt(valueAt);
        splice(at, after(valueAt));
        size--;
        return old;
    }

    @Override
    public void clear() {
        packed = EMPTY;
        size = 0;
        entryBytes = 0;
        changes++;
    }

    /** The pairs in order, each a copy (read-only: setValue is not supported). Iterators do not remove. */
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
        private int at;

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
            Bytes field = Bytes.wrap(bytesAt(at));
            int valueAt = after(at);
            byte[] value = bytesAt(valueAt);
            at = after(valueAt);
            next++;
            return new AbstractMap.SimpleImmutableEntry<>(field, value);
        }
    }
}
