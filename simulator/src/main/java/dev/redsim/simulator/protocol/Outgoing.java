package dev.redsim.simulator.protocol;

import java.util.Arrays;

/**
 * Replies waiting to be written, as an ordered list of array slices: mostly one slice of the connection's reply
 * buffer, and for a big reply the value's own arrays, so a big value is copied once, by the transport (into socket
 * memory, or what the socket does not take at once). A transport reads the slices during its write call only.
 */
public final class Outgoing {
    private byte[][] arrays = new byte[2][];
    private int[] offsets = new int[2];
    private int[] lengths = new int[2];
    private int count;
    private long bytes;

    /** Appends a slice; empty slices are left out. */
    public void add(byte[] array, int offset, int length) {
        if (length == 0) {
            return;
        }
        if (count == arrays.length) {
            arrays = Arrays.copyOf(arrays, count * 2);
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        arrays[count] = array;
        offsets[count] = offset;
        lengths[count] = length;
        count++;
        bytes += length;
    }

    public static Outgoing of(byte[] bytes) {
        Outgoing out = new Outgoing();
        out.add(bytes, 0, bytes.length);
        return out;
    }

    /** The number of slices. */
    public int count() {
        return count;
    }

    public byte[] array(int slice) {
        return arrays[slice];
    }

    public int offset(int slice) {
        return offsets[slice];
    }

    public int length(int slice) {
        return lengths[slice];
    }

    /** All the slices' bytes. */
    public long bytes() {
        return bytes;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** Forgets the slices (not their arrays' contents): the object is reused for the next batch. */
    public void clear() {
        Arrays.fill(arrays, 0, count, null);
        count = 0;
        bytes = 0;
    }

    /** The bytes in one new array (scripts and in-process peers, which read replies rather than send them). */
    public byte[] toArray() {
        byte[] all = new byte[Math.toIntExact(bytes)];
        int at = 0;
        for (int i = 0; i < count; i++) {
            System.arraycopy(arrays[i], offsets[i], all, at, lengths[i]);
            at += lengths[i];
        }
        return all;
    }
}
