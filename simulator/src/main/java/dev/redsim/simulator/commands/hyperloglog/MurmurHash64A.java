package dev.redsim.simulator.commands.hyperloglog;

/**
 * MurmurHash2, 64-bit version (MurmurHash64A), as Redis's HyperLogLog hashes elements: 8-byte blocks read
 * little-endian whatever the machine, so every platform agrees on the registers an element sets.
 */
final class MurmurHash64A {
    private static final long M = 0xc6a4a7935bd1e995L;
    private static final int R = 47;

    private MurmurHash64A() {
    }

    static long hash(byte[] data, int length, long seed) {
        long h = seed ^ (length * M);
        int blocks = length - (length & 7);
        for (int i = 0; i < blocks; i += 8) {
            long k = littleEndianLong(data, i);
            k *= M;
            k ^= k >>> R;
            k *= M;
            h ^= k;
            h *= M;
        }
        int tail = length & 7;
        if (tail > 0) {
            for (int i = tail - 1; i >= 0; i--) {
                h ^= (data[blocks + i] & 0xffL) << (8 * i);
            }
            h *= M;
        }
        h ^= h >>> R;
        h *= M;
        h ^= h >>> R;
        return h;
    }

    private static long littleEndianLong(byte[] data, int at) {
        long k = 0;
        for (int i = 7; i >= 0; i--) {
            k = (k << 8) | (data[at + i] & 0xffL);
        }
        return k;
    }
}
