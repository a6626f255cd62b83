package dev.redsim.simulator.keyspace;

import java.nio.charset.StandardCharsets;

/** Number parsing with the exact acceptance rules of Redis's util.c (string2ll, string2ld, strtod use). */
public final class Numbers {
    private Numbers() {
    }

    /**
     * string2ll: optional '-', digits, no '+', no spaces, no leading zeros, within 64 bits. Null when the text is
     * not such an integer.
     */
    public static Long parseLongStrict(byte[] s) {
        return parseLongStrict(s, 0, s.length);
    }

    /** As {@link #parseLongStrict(byte[])} for the {@code len} bytes of {@code s} from {@code from}. */
    public static Long parseLongStrict(byte[] s, int from, int len) {
        if (len == 0 || len > 20) {
            return null;
        }
        if (len == 1 && s[from] == '0') {
            return 0L;
        }
        int i = from;
        int end = from + len;
        boolean negative = false;
        if (s[from] == '-') {
            negative = true;
            i++;
            if (len == 1) {
                return null;
            }
        }
        if (s[i] < '1' || s[i] > '9') {
            return null;
        }
        long v = 0; // accumulate negatively so Long.MIN_VALUE parses
        for (; i < end; i++) {
            int d = s[i] - '0';
            if (d < 0 || d > 9) {
                return null;
            }
            if (v < (Long.MIN_VALUE + d) / 10) {
                return null;
            }
            v = v * 10 - d;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return null;
            }
            return -v;
        }
        return v;
    }

    /**
     * Parses a double as Redis's getDoubleFromObject: strtod over the whole string, no leading space, not NaN,
     * and not out of range (strtod's ERANGE: a finite number too large for a double, or one so small it reads as
     * zero). Accepts "inf", "+inf", "-inf", "infinity" as strtod does. Null when invalid.
     */
    public static Double parseDouble(byte[] s) {
        if (s.length <= 15) {
            // A plain integer of up to 15 digits (ZADD's usual score) is exactly that double, as strtod reads it:
            // no text copies, lower-casing or mantissa check for it.
            Long integer = parseLongStrict(s);
            if (integer != null) {
                return (double) integer;
            }
        }
        Double value = parseDoubleUnchecked(s);
        if (value == null) {
            return null;
        }
        boolean overflow = Double.isInfinite(value) && !isInfinityWord(s);
        boolean underflow = value == 0.0 && hasNonZeroMantissa(s);
        return overflow || underflow ? null : value;
    }

    /**
     * strtod over the whole string without the range check, as zslParseRange reads score bounds: "1e400" is
     * +inf there, "1e-400" is 0.
     */
    public static Double parseDoubleUnchecked(byte[] s) {
        if (s.length == 0 || isSpace(s[0]) || isSpace(s[s.length - 1])) {
            return null;
        }
        String text = new String(s, StandardCharsets.ISO_8859_1);
        String lower = text.toLowerCase();
        String unsigned = lower.startsWith("-") || lower.startsWith("+") ? lower.substring(1) : lower;
        if (unsigned.equals("inf") || unsigned.equals("infinity")) {
            return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (unsigned.startsWith("nan")) {
            return null;
        }
        // strtod accepts decimal and hex floats; Java's parser also accepts a trailing 'd'/'f' which C does not.
        char last = lower.charAt(lower.length() - 1);
        if (last == 'd' || last == 'f') {
            return null;
        }
        for (int i = 0; i < unsigned.length(); i++) {
            char c = unsigned.charAt(i);
            if (!(Character.isDigit(c) || c == '.' || c == 'e' || c == '+' || c == '-' || c == 'x' || c == 'p'
                    || (c >= 'a' && c <= 'f'))) {
                return null;
            }
        }
        try {
            if (unsigned.startsWith("0x")) {
                String hex = lower.contains("p") ? text : text + "p0";
                return Double.parseDouble(hex);
            }
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean isInfinityWord(byte[] s) {
        String lower = new String(s, StandardCharsets.ISO_8859_1).toLowerCase();
        String unsigned = lower.startsWith("-") || lower.startsWith("+") ? lower.substring(1) : lower;
        return unsigned.equals("inf") || unsigned.equals("infinity");
    }

    /** Whether the digits before the exponent (decimal 'e' or hex 'p') include a nonzero one. */
    private static boolean hasNonZeroMantissa(byte[] s) {
        String lower = new String(s, StandardCharsets.ISO_8859_1).toLowerCase();
        boolean hex = lower.contains("0x");
        String digits = hex ? lower.substring(lower.indexOf("0x") + 2) : lower;
        int exponent = digits.indexOf(hex ? 'p' : 'e');
        if (exponent >= 0) {
            digits = digits.substring(0, exponent);
        }
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if ((c >= '1' && c <= '9') || (hex && c >= 'a' && c <= 'f')) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    /** The decimal text of a number (ll2string), written straight into an array of its exact length. */
    public static byte[] toBytes(long value) {
        if (value == Long.MIN_VALUE) {
            return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
        }
        boolean negative = value < 0;
        long rest = negative ? -value : value;
        int digits = 1;
        for (long bound = 10; digits < 19 && rest >= bound; bound *= 10) {
            digits++;
        }
        byte[] text = new byte[negative ? digits + 1 : digits];
        for (int i = text.length - 1; i >= (negative ? 1 : 0); i--) {
            text[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        if (negative) {
            text[0] = '-';
        }
        return text;
    }

    /**
     * The value of a text already known to be a strict integer ({@link #parseLongStrict} accepted it once), read
     * without checks or a boxed result.
     */
    static long parseKnownLong(byte[] s, int length) {
        int i = s[0] == '-' ? 1 : 0;
        long v = 0; // negatively, so Long.MIN_VALUE reads too
        for (; i < length; i++) {
            v = v * 10 - (s[i] - '0');
        }
        return s[0] == '-' ? v : -v;
    }
}
