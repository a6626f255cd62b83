package dev.redsim.simulator.util.rdb;

/**
 * Redis's intset (intset.c) as DUMP writes it: the element width (2, 4 or 8 bytes), the count, then the sorted
 * integers, all little-endian. Redis widens an intset for a big member and never narrows it back; a set here
 * only knows its members, so the width is the smallest that holds them.
 */
public final class Intset {
    private Intset() {
    }

    public static byte[] encode(long[] sorted, int count) {
        int width = 2;
        for (int i = 0; i < count; i++) {
            long v = sorted[i];
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                width = 8;
            } else if ((v < Short.MIN_VALUE || v > Short.MAX_VALUE) && width < 4) {
                width = 4;
            }
        }
        byte[] out = new byte[8 + width * count];
        put(out, 0, width, 4);
        put(out, 4, count, 4);
        for (int i = 0; i < count; i++) {
            put(out, 8 + i * width, sorted[i], width);
        }
        return out;
    }

    /** The members of an intset blob, in its order; Malformed when the blob does not hold what it says. */
    public static long[] decode(byte[] blob) {
        if (blob.length < 8) {
            throw new RdbReader.Malformed("intset too short");
        }
        int width = (int) get(blob, 0, 4);
        long count = get(blob, 4, 4) & 0xffffffffL;
        if ((width != 2 && width != 4 && width != 8) || 8 + count * width != blob.length) {
            throw new RdbReader.Malformed("intset size");
        }
        long[] out = new long[(int) count];
        for (int i = 0; i < count; i++) {
            out[i] = get(blob, 8 + i * width, width);
        }
        return out;
    }

    private static void put(byte[] b, int at, long v, int width) {
        for (int i = 0; i < width; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    private static long get(byte[] b, int at, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v |= (b[at + i] & 0xffL) << (8 * i);
        }
        int shift = 64 - 8 * width;
        return (v << shift) >> shift;
    }
}
