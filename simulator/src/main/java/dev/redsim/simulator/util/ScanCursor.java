package dev.redsim.simulator.util;

import dev.redsim.simulator.error.RedisError;

/**
 * The cursor argument of SCAN, HSCAN, SSCAN and ZSCAN. The walk itself is {@link ScanDict#scan}: Redis's
 * reverse-binary bucket cursor over Redis's dict.
 */
public final class ScanCursor {
    private ScanCursor() {
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
}
