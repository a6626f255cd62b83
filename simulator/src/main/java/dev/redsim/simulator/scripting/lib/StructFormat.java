package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaError;

/**
 * A cursor over a struct format string with its current endianness and alignment (Roberto
 * Ierusalimschy's struct library as Redis 7.0 bundles it, on x86-64: native little endian, long and
 * size_t 8 bytes, int 4, maximum alignment 8). A NUL byte ends the format, as in C.
 */
final class StructFormat {
    static final int MAX_INT_SIZE = 32;
    private static final int MAX_ALIGN = 8;

    private final byte[] format;
    private final String function;
    private int pos;
    boolean littleEndian = true;
    int align = 1;

    StructFormat(byte[] format, String function) {
        this.format = format;
        this.function = function;
    }

    boolean hasNext() {
        return pos < format.length && format[pos] != 0;
    }

    int nextOption() {
        return format[pos++] & 0xff;
    }

    private boolean digitAhead() {
        return pos < format.length && format[pos] >= '0' && format[pos] <= '9';
    }

    /** The number written after an option, or fallback when there is none. */
    int number(int fallback) {
        if (!digitAhead()) {
            return fallback;
        }
        int a = 0;
        do {
            int digit = format[pos] - '0';
            if (a > Integer.MAX_VALUE / 10 || a * 10 > Integer.MAX_VALUE - digit) {
                throw new LuaError("integral size overflow");
            }
            a = a * 10 + digit;
            pos++;
        } while (digitAhead());
        return a;
    }

    /** The size in bytes of an option (0 for options without data), reading its number if it has one. */
    long size(int option) {
        return switch (option) {
            case 'B', 'b' -> 1;
            case 'H', 'h' -> 2;
            case 'L', 'l', 'T', 'd' -> 8;
            case 'f' -> 4;
            case 'x' -> 1;
            case 'c' -> number(1);
            case 'i', 'I' -> {
                int size = number(4);
                if (size > MAX_INT_SIZE) {
                    throw new LuaError("integral size " + size + " is larger than limit of " + MAX_INT_SIZE);
                }
                yield size;
            }
            default -> 0;
        };
    }

    /** Padding needed before an item of this size at offset position. */
    long padding(long position, int option, long size) {
        if (size == 0 || option == 'c') {
            return 0;
        }
        long alignment = Math.min(size, align);
        return (alignment - (position & (alignment - 1))) & (alignment - 1);
    }

    /** The options that only change state: space, endianness, alignment; anything else is invalid. */
    void control(int option) {
        switch (option) {
            case ' ' -> {
            }
            case '>' -> littleEndian = false;
            case '<' -> littleEndian = true;
            case '!' -> {
                int a = number(MAX_ALIGN);
                if (a <= 0 || (a & (a - 1)) != 0) {
                    throw new LuaError("alignment " + a + " is not a power of 2");
                }
                align = a;
            }
            default -> throw LuaArgs.argError(function, 1, "invalid format option '" + (char) option + "'");
        }
    }

    static boolean isIntegerOption(int option) {
        return switch (option) {
            case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I' -> true;
            default -> false;
        };
    }
}
