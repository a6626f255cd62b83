package dev.redsim.simulator.util;

import dev.redsim.simulator.error.RedisError;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Cursor iteration for SCAN, HSCAN, SSCAN and ZSCAN with Redis's guarantee: an element present from the
 * first call to the last is returned at least once, whatever is added or removed in between. Elements are
 * visited in the order of a fixed 64-bit hash of their bytes, and the cursor is the hash to resume from, so
 * it stays valid however the collection changes (Redis gets the same property from its reverse-binary
 * bucket cursor). Cursor values differ from Redis's, which clients must treat as opaque anyway.
 */
public final class ScanCursor {
    private ScanCursor() {
    }

    /** One page: the cursor to send next (0 when done) and the elements. */
    public record Page<T>(long nextCursor, List<T> items) {
        public String cursorText() {
            return Long.toUnsignedString(nextCursor);
        }
    }

    /** Parses a cursor as Redis's parseScanCursorOrReply (strtoul): "ERR invalid cursor" otherwise. */
    public static long parse(byte[] text) {
        // strtoul takes one optional sign, and a minus wraps around ("-1" is the largest cursor); "" reads as 0.
        if (text.length == 0) {
            return 0;
        }
        int start = text.length > 0 && (text[0] == '-' || text[0] == '+') ? 1 : 0;
        if (text.length == start || text.length - start > 20) {
            throw new RedisError("ERR invalid cursor");
        }
        for (int i = start; i < text.length; i++) {
            if (text[i] < '0' || text[i] > '9') {
                throw new RedisError("ERR invalid cursor");
            }
        }
        try {
            long value = Long.parseUnsignedLong(
                    new String(text, start, text.length - start, java.nio.charset.StandardCharsets.US_ASCII));
            return text[0] == '-' ? -value : value;
        } catch (NumberFormatException e) {
            throw new RedisError("ERR invalid cursor");
        }
    }

    /**
     * Returns up to {@code count} elements whose position is at or after the cursor (elements sharing a hash
     * are never split across pages).
     */
    public static <T> Page<T> page(Collection<T> elements, Function<T, byte[]> bytesOf, long cursor, long count) {
        List<long[]> order = new ArrayList<>(elements.size());
        List<T> items = new ArrayList<>(elements);
        for (int i = 0; i < items.size(); i++) {
            long h = position(bytesOf.apply(items.get(i)));
            if (Long.compareUnsigned(h, cursor) >= 0) {
                order.add(new long[] {h, i});
            }
        }
        order.sort((a, b) -> Long.compareUnsigned(a[0], b[0]));
        List<T> page = new ArrayList<>();
        int i = 0;
        while (i < order.size() && (page.size() < count || (i > 0 && order.get(i)[0] == order.get(i - 1)[0]))) {
            page.add(items.get((int) order.get(i)[1]));
            i++;
        }
        long next = i < order.size() ? order.get(i)[0] : 0;
        return new Page<>(next, page);
    }

    /** A well-mixed 64-bit position, never 0 (0 is the cursor that starts and ends a scan). */
    static long position(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h == 0 ? 1 : h;
    }
}
