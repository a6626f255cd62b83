package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.HashValue;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.StringValue;

/**
 * SORT's BY and GET patterns (sort.c's lookupKeyByPattern): "#" is the element itself; otherwise the first '*'
 * is replaced by the element to name a key, holding a string, or with "->field" after the '*' a hash and its
 * field. The pattern is read as Redis reads it, partly as a C string: "#", the '*' and the "->" are searched only
 * before its first NUL byte.
 */
final class SortPattern {
    private SortPattern() {
    }

    /** Whether a BY pattern names keys at all: without a '*' it is constant and SORT does not sort. */
    static boolean hasStar(byte[] pattern) {
        return indexOf(pattern, (byte) '*', 0) >= 0;
    }

    /** The value the pattern names for an element, or null (no key, another type, no field, no '*'). */
    static byte[] lookup(Database db, byte[] pattern, byte[] element) {
        if (pattern.length > 0 && pattern[0] == '#' && (pattern.length == 1 || pattern[1] == 0)) {
            return element;
        }
        int star = indexOf(pattern, (byte) '*', 0);
        if (star < 0) {
            return null;
        }
        int arrow = arrowAfter(pattern, star + 1);
        int fieldLength = arrow < 0 ? 0 : pattern.length - arrow - 2;
        int postfixLength = pattern.length - (star + 1) - (fieldLength > 0 ? fieldLength + 2 : 0);
        byte[] key = new byte[star + element.length + postfixLength];
        System.arraycopy(pattern, 0, key, 0, star);
        System.arraycopy(element, 0, key, star, element.length);
        System.arraycopy(pattern, star + 1, key, star + element.length, postfixLength);
        RedisValue value = db.getForRead(Bytes.wrap(key));
        if (value == null) {
            return null;
        }
        if (fieldLength > 0) {
            byte[] field = java.util.Arrays.copyOfRange(pattern, arrow + 2, pattern.length);
            return value instanceof HashValue hash ? hash.get(Bytes.wrap(field)) : null;
        }
        return value instanceof StringValue string ? string.bytes() : null;
    }

    /** strstr(p, "->") on the C string from {@code from}, counting only a match followed by a non-NUL byte. */
    private static int arrowAfter(byte[] pattern, int from) {
        for (int i = from; i < pattern.length && pattern[i] != 0; i++) {
            if (pattern[i] == '-' && i + 1 < pattern.length && pattern[i + 1] == '>') {
                boolean fieldFollows = i + 2 < pattern.length && pattern[i + 2] != 0;
                return fieldFollows ? i : -1;
            }
        }
        return -1;
    }

    /** strchr: the first {@code b} before the first NUL, or -1. */
    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length && bytes[i] != 0; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
