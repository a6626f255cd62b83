package dev.redsim.simulator.util.rdb;

/**
 * Redis's intset (intset.c) as DUMP writes it: the element width (2, 4 or 8 bytes), the count, then the sorted
 * integers, all little-endian. Redis widens an intset for a big member and never narrows it back, so its width is
 * the widest any member needed since it was made (or the width of the blob it was restored from).
 */
public final class Intset {
    private Intset() {
    }

    /** The width an intset needs for {@code v}: 2, 4 or 8 bytes (_intsetValueEncoding). */
    public static int widthOf(long v) {
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            return 8;
        }
        return v < Short.MIN_VALUE || v > Short.MAX_VALUE ? 4 : 2;
    }

    /** The blob of the sorted integers at {@code width} bytes each (at least what each of them needs). */
    public static byte[] encode(long[] sorted, int count, int width) {
        byte[] out = new byte[8 + width * count];
        put(out, 0, width, 4);
        put(out, 4, count, 4);
        for (int i = 0; i < count; i++) {
            put(out, 8 + i * width, sorted[i], width);
        }
        return out;
    }

    /** The width a blob's integers are stored at (read before {@link #decode} checks the blob). */
    public static int width(byte[] blob) {
        return blob.length < 4 ? 2 : (int) get(blob, 0, 4);
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
