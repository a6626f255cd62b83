package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.ScanDict;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable byte string used as a key, field or member: binary safe, hashed once, ordered as memcmp
 * orders (unsigned bytes, shorter first on a common prefix), which is how Redis compares them.
 */
public final class Bytes implements Comparable<Bytes> {
    private final byte[] data;
    private int hash;

    /**
     * How a dict of Bytes keys keeps them: the array alone, without this wrapper (24 bytes a key saved in a keyspace
     * of small keys); a wrapper is made again when the dict hands a key out.
     */
    public static final ScanDict.KeyForm<Bytes> AS_ARRAY = new ScanDict.KeyForm<>() {
        @Override
        public Object stored(Bytes key) {
            return key.data;
        }

        @Override
        public Bytes key(Object stored) {
            return new Bytes((byte[]) stored);
        }

        @Override
        public boolean holds(Object stored, Object key) {
            return key instanceof Bytes b && Arrays.equals((byte[]) stored, b.data);
        }

        @Override
        public int hashCode(Object stored) {
            return hashOf((byte[]) stored);
        }
    };

    private Bytes(byte[] data) {
        this.data = data;
    }

    /** Wraps without copying: the caller hands the array over and must not change it. */
    public static Bytes wrap(byte[] data) {
        return new Bytes(data);
    }

    public static Bytes of(String text) {
        return new Bytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The bytes themselves; callers must not change them. */
    public byte[] bytes() {
        return data;
    }

    public int length() {
        return data.length;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Bytes b && Arrays.equals(data, b.data);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = hashOf(data);
            hash = h;
        }
        return h;
    }

    /** The hash code of a Bytes of these bytes; never 0, which marks a hash not computed yet. */
    private static int hashOf(byte[] data) {
        int h = Arrays.hashCode(data);
        return h == 0 ? 1 : h;
    }

    @Override
    public int compareTo(Bytes other) {
        return compare(data, other.data);
    }

    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    @Override
    public String toString() {
        return dev.redsim.simulator.util.ByteText.decode(data);
    }
}
