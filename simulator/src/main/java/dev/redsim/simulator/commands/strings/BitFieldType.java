package dev.redsim.simulator.commands.strings;

/**
 * A BITFIELD integer type (i1..i64, u1..u63): reads and writes it at a bit offset (big-endian bit order, as
 * SETBIT's), and applies Redis's overflow rules (bitops.c's checkSignedBitfieldOverflow and
 * checkUnsignedBitfieldOverflow), whose arithmetic is 64-bit two's complement like Java's long.
 */
record BitFieldType(boolean signed, int bits) {

    /** The field at {@code offset}; bits past {@code length} bytes read as zero. */
    long read(byte[] bytes, int length, long offset) {
        long value = 0;
        for (int j = 0; j < bits; j++, offset++) {
            long index = offset >> 3;
            int bit = index < length ? (bytes[(int) index] >> (7 - (int) (offset & 7))) & 1 : 0;
            value = (value << 1) | bit;
        }
        if (signed && bits < 64 && (value & (1L << (bits - 1))) != 0) {
            value |= -1L << bits; // extend the sign
        }
        return value;
    }

    /** Writes the low {@code bits} bits of value; the string is already long enough. */
    void write(byte[] bytes, long offset, long value) {
        for (int j = 0; j < bits; j++, offset++) {
            int index = (int) (offset >> 3);
            int mask = 1 << (7 - (int) (offset & 7));
            boolean set = (value & (1L << (bits - 1 - j))) != 0;
            bytes[index] = (byte) (set ? bytes[index] | mask : bytes[index] & ~mask);
        }
    }

    /**
     * {@code value + increment} as this field stores it under the overflow mode, or null when it overflows under
     * FAIL. SET passes its value with increment 0, so an out-of-range value counts as an overflow too.
     */
    Long add(long value, long increment, BitFieldOverflow mode) {
        int direction = signed ? signedOverflow(value, increment) : unsignedOverflow(value, increment);
        if (direction == 0) {
            return value + increment;
        }
        return switch (mode) {
            case FAIL -> null;
            case WRAP -> wrap(value + increment);
            case SAT -> direction > 0 ? max() : min();
        };
    }

    private long max() {
        if (signed) {
            return bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        }
        return (1L << bits) - 1; // at most 63 bits
    }

    private long min() {
        return signed ? -max() - 1 : 0;
    }

    /** 1 above the range, -1 below it, 0 inside; the value is compared unsigned, as Redis's uint64_t. */
    private int unsignedOverflow(long value, long increment) {
        long max = max();
        long maxIncrement = max - value;
        long minIncrement = -value;
        if (Long.compareUnsigned(value, max) > 0 || (increment > 0 && increment > maxIncrement)) {
            return 1;
        }
        if (increment < 0 && increment < minIncrement) {
            return -1;
        }
        return 0;
    }

    private int signedOverflow(long value, long increment) {
        long max = max();
        long min = min();
        long maxIncrement = max - value;
        long minIncrement = min - value;
        if (value > max || (bits != 64 && increment > maxIncrement)
                || (value >= 0 && increment > 0 && increment > maxIncrement)) {
            return 1;
        }
        if (value < min || (bits != 64 && increment < minIncrement)
                || (value < 0 && increment < 0 && increment < minIncrement)) {
            return -1;
        }
        return 0;
    }

    /** The low bits of a sum; for signed fields the field's sign bit is extended. */
    private long wrap(long sum) {
        if (bits == 64) {
            return sum;
        }
        long mask = -1L << bits;
        if (signed && (sum & (1L << (bits - 1))) != 0) {
            return sum | mask;
        }
        return sum & ~mask;
    }
}
