package dev.redsim.simulator.commands.hyperloglog;

import java.util.Arrays;

/**
 * A HyperLogLog as Redis stores it in a string (hyperloglog.c), byte for byte: a 16-byte header ("HYLL", the
 * encoding, three unused bytes, the cached cardinality in little endian with its top bit meaning "stale"), then
 * either 16384 six-bit registers packed from the least significant bit ("dense", 12288 bytes) or the run-length
 * opcodes of {@link HllSparse}. Edited in place; a sparse edit may grow the array or replace it by a dense one.
 */
final class Hll {
    static final int HEADER = 16;
    static final int P = 14;
    static final int REGISTERS = 1 << P;
    static final int Q = 64 - P;
    static final int DENSE_SIZE = HEADER + (REGISTERS * 6 + 7) / 8;
    static final int DENSE = 0;
    static final int SPARSE = 1;
    private static final long HASH_SEED = 0xadc83b19L;

    /** The bytes; only the first {@link #length} count, the rest are zeros. */
    byte[] bytes;
    int length;

    Hll(byte[] bytes, int length) {
        this.bytes = bytes;
        this.length = length;
    }

    /** A new, empty HLL: sparse, its 16384 registers one XZERO opcode (createHLLObject). */
    static Hll empty() {
        byte[] bytes = new byte[HEADER + 2];
        writeMagic(bytes, SPARSE);
        HllSparse.putXzero(bytes, HEADER, REGISTERS);
        return new Hll(bytes, bytes.length);
    }

    /** A dense HLL with every register zero and a cached cardinality of 0 (used by PFSELFTEST). */
    static Hll emptyDense() {
        byte[] bytes = new byte[DENSE_SIZE];
        writeMagic(bytes, DENSE);
        return new Hll(bytes, DENSE_SIZE);
    }

    private static void writeMagic(byte[] bytes, int encoding) {
        bytes[0] = 'H';
        bytes[1] = 'Y';
        bytes[2] = 'L';
        bytes[3] = 'L';
        bytes[4] = (byte) encoding;
    }

    /**
     * Whether a string holds an HLL as far as Redis checks (isHLLObjectOrReply): at least a header, the magic, a
     * known encoding, and exactly the dense size when dense. Sparse opcodes are checked only when read.
     */
    static boolean looksValid(byte[] bytes, int length) {
        if (length < HEADER || bytes[0] != 'H' || bytes[1] != 'Y' || bytes[2] != 'L' || bytes[3] != 'L') {
            return false;
        }
        int encoding = bytes[4] & 0xff;
        return encoding == SPARSE || (encoding == DENSE && length == DENSE_SIZE);
    }

    int encoding() {
        return bytes[4] & 0xff;
    }

    /** The byte at {@code i}, or 0 past the end (Redis reads the sds terminator there). */
    int at(int i) {
        return i < length ? bytes[i] & 0xff : 0;
    }

    // ---- the cached cardinality ----

    boolean cacheValid() {
        return (bytes[15] & 0x80) == 0;
    }

    long cachedCardinality() {
        long card = 0;
        for (int i = 15; i >= 8; i--) {
            card = (card << 8) | (bytes[i] & 0xffL);
        }
        return card;
    }

    void cacheCardinality(long card) {
        for (int i = 8; i < 16; i++) {
            bytes[i] = (byte) card;
            card >>>= 8;
        }
    }

    /** Marks the cache stale; the other cache bytes keep the old value, as in Redis. */
    void invalidateCache() {
        bytes[15] |= (byte) 0x80;
    }

    // ---- adding ----

    /** The register an element hashes to (low 14 bits of the hash) and its run of zeros plus one (hllPatLen). */
    static long pattern(byte[] element, int length) {
        long hash = MurmurHash64A.hash(element, length, HASH_SEED);
        long index = hash & (REGISTERS - 1);
        long rest = (hash >>> P) | (1L << Q); // the extra bit bounds the count at Q + 1
        long count = Long.numberOfTrailingZeros(rest) + 1;
        return (count << 32) | index;
    }

    /** Adds an element: 1 when a register grew, 0 when not, -1 when the sparse opcodes are corrupt. */
    int add(byte[] element, long sparseMaxBytes) {
        long pattern = pattern(element, element.length);
        return set((int) pattern, (int) (pattern >>> 32), sparseMaxBytes);
    }

    /** Raises a register to {@code count} if it is lower (hllDenseSet / hllSparseSet); as {@link #add}. */
    int set(int index, int count, long sparseMaxBytes) {
        return switch (encoding()) {
            case DENSE -> HllDense.raise(bytes, index, count) ? 1 : 0;
            case SPARSE -> HllSparse.set(this, index, count, sparseMaxBytes);
            default -> -1;
        };
    }

    /** Converts a sparse HLL to dense (hllSparseToDense); false, changing nothing, when the opcodes are corrupt. */
    boolean toDense() {
        if (encoding() == DENSE) {
            return true;
        }
        byte[] dense = Arrays.copyOf(bytes, DENSE_SIZE); // header first: magic, unused bytes and cache kept
        Arrays.fill(dense, HEADER, DENSE_SIZE, (byte) 0);
        dense[4] = DENSE;
        if (!HllSparse.forEachRegister(this, (index, value) -> HllDense.put(dense, index, value))) {
            return false;
        }
        bytes = dense;
        length = DENSE_SIZE;
        return true;
    }

    /** Takes the maximum of each register into {@code max} (hllMerge); false when the sparse opcodes are corrupt. */
    boolean mergeInto(byte[] max) {
        if (encoding() == DENSE) {
            for (int i = 0; i < REGISTERS; i++) {
                max[i] = (byte) Math.max(max[i], HllDense.get(bytes, i));
            }
            return true;
        }
        return HllSparse.forEachRegister(this, (index, value) -> max[index] = (byte) Math.max(max[index], value));
    }

    /** How many registers hold each value; null when the sparse opcodes do not cover exactly 16384 registers. */
    int[] histogram() {
        int[] histogram = new int[64];
        if (encoding() == DENSE) {
            for (int i = 0; i < REGISTERS; i++) {
                histogram[HllDense.get(bytes, i)]++;
            }
            return histogram;
        }
        return HllSparse.histogram(this, histogram) ? histogram : null;
    }

    /** The bytes as the string value holds them. */
    byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }
}
