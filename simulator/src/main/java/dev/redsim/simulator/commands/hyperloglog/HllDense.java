package dev.redsim.simulator.commands.hyperloglog;

/**
 * The dense registers: 16384 six-bit counters after the header, register i starting at bit 6*i counted from the
 * least significant bit of each byte, spilling into the next byte.
 */
final class HllDense {
    private HllDense() {
    }

    static int get(byte[] bytes, int index) {
        int at = Hll.HEADER + index * 6 / 8;
        int shift = index * 6 & 7;
        int b0 = bytes[at] & 0xff;
        int b1 = at + 1 < bytes.length ? bytes[at + 1] & 0xff : 0;
        return ((b0 >>> shift) | (b1 << (8 - shift))) & 63;
    }

    static void put(byte[] bytes, int index, int value) {
        int at = Hll.HEADER + index * 6 / 8;
        int shift = index * 6 & 7;
        bytes[at] = (byte) ((bytes[at] & ~(63 << shift)) | (value << shift));
        if (shift > 2) { // the register continues in the next byte
            bytes[at + 1] = (byte) ((bytes[at + 1] & ~(63 >>> (8 - shift))) | (value >>> (8 - shift)));
        }
    }

    /** Raises a register to count when lower; true when it changed. */
    static boolean raise(byte[] bytes, int index, int count) {
        if (count > get(bytes, index)) {
            put(bytes, index, count);
            return true;
        }
        return false;
    }
}
