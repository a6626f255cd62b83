package dev.redsim.simulator.keyspace;

/**
 * The sizes of Redis 7.0's structures on 64-bit with jemalloc (robj, sds, dictEntry, dict, listpack, quicklist),
 * from which each value type computes what MEMORY USAGE reports for it ({@link RedisValue#memoryUsage}).
 */
public final class MemoryLayout {
    public static final int ROBJ = 16;
    public static final int DICT_ENTRY = 24;
    static final int DICT = 56;
    static final int QUICKLIST = 40;
    static final int QUICKLIST_NODE = 40;
    static final int LISTPACK_NODE_BYTES = 8192;
    /** A skiplist node has 24 bytes plus 16 per level, levels drawn with p = 1/4: about 53 bytes allocated. */
    static final int EXPECTED_SKIPLIST_NODE = 53;

    private MemoryLayout() {
    }

    static long extrapolate(long sampled, long count, long size) {
        return count == 0 ? 0 : (long) ((double) sampled / count * size);
    }

    /** Buckets of a Redis dict holding n entries: a power of two, at least 4. */
    static long slots(long n) {
        long slots = 4;
        while (slots < n) {
            slots <<= 1;
        }
        return slots;
    }

    /** Bytes of one listpack entry: encoding, data and back-length. */
    static long listpackEntry(byte[] element) {
        return listpackEntry(element, 0, element.length);
    }

    /** As {@link #listpackEntry(byte[])} for the {@code length} bytes of {@code packed} from {@code from}. */
    static long listpackEntry(byte[] packed, int from, int length) {
        Long asInt = length <= 20 ? Numbers.parseLongStrict(packed, from, length) : null;
        long size;
        if (asInt != null) {
            long v = asInt;
            if (v >= 0 && v <= 127) {
                size = 1;
            } else if (v >= -4096 && v <= 4095) {
                size = 2;
            } else if (v == (short) v) {
                size = 3;
            } else if (v >= -(1 << 23) && v < (1 << 23)) {
                size = 4;
            } else if (v == (int) v) {
                size = 5;
            } else {
                size = 9;
            }
        } else {
            int len = length;
            size = (len <= 63 ? 1 : len <= 4095 ? 2 : 5) + len;
        }
        long backlen = size <= 127 ? 1 : size < 16383 ? 2 : size < 2097151 ? 3 : size < 268435455 ? 4 : 5;
        return size + backlen;
    }

    /** An sds string's allocation: header by length (sdshdr5 below 32 bytes, but never empty), content, NUL. */
    public static long sds(long len) {
        int header = len > 0 && len < 32 ? 1 : len < 256 ? 3 : len < 65536 ? 5 : len < (1L << 32) ? 9 : 17;
        return jemalloc(header + len + 1);
    }

    /** jemalloc's size class for a request (16-byte quantum, four classes per doubling). */
    public static long jemalloc(long n) {
        if (n <= 8) {
            return 8;
        }
        if (n <= 128) {
            return (n + 15) / 16 * 16;
        }
        long group = Long.highestOneBit(n - 1);
        long step = group / 4;
        return (n + step - 1) / step * step;
    }
}
