package dev.redsim.simulator.scripting.lib;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The C number conversions Redis's Lua libraries rely on, done the way glibc on x86-64 does them:
 * printf's %.Ng, strtod's accepted prefixes, and double to integer casts (out of range gives the
 * "integer indefinite" value, not Java's saturation).
 */
public final class CNumbers {
    private static final double TWO_63 = 9223372036854775808.0;
    private static final double[] POWERS_OF_TEN = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
        1e13, 1e14, 1e15};

    private CNumbers() {
    }

    /** C's (long) cast of a double on x86-64: NaN and out-of-range values give Long.MIN_VALUE. */
    public static long toLong(double d) {
        if (Double.isNaN(d) || d >= TWO_63 || d < -TWO_63) {
            return Long.MIN_VALUE;
        }
        return (long) d;
    }

    /** C's (int) cast of a double on x86-64: NaN and out-of-range values give Integer.MIN_VALUE. */
    public static int toInt(double d) {
        if (Double.isNaN(d) || d >= 2147483648.0 || d <= -2147483649.0) {
            return Integer.MIN_VALUE;
        }
        return (int) d;
    }

    /** C's (unsigned long) cast of a non-negative double as gcc compiles it for x86-64. */
    public static long toUnsignedLong(double d) {
        if (!(d >= TWO_63)) {
            return toLong(d);
        }
        return toLong(d - TWO_63) ^ Long.MIN_VALUE;
    }

    /** An unsigned 64-bit value converted to double (rounded to nearest, as C does). */
    public static double unsignedToDouble(long value) {
        if (value >= 0) {
            return value;
        }
        double half = (double) ((value >>> 1) | (value & 1));
        return half * 2.0;
    }

    /** printf("%.{precision}g", d) as glibc prints it. */
    public static String formatG(double d, int precision) {
        if (Double.isNaN(d)) {
            return (Double.doubleToRawLongBits(d) < 0) ? "-nan" : "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (Double.doubleToRawLongBits(d) < 0) ? "-0" : "0";
        }
        int p = Math.max(precision, 1);
        if (d == Math.rint(d) && Math.abs(d) < POWERS_OF_TEN[Math.min(p, 15)]) {
            return Long.toString((long) d); // an integer with at most p digits prints as itself
        }
        BigDecimal rounded = new BigDecimal(d).round(new MathContext(p, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= p) {
            return scientific(rounded, exponent);
        }
        String plain = rounded.stripTrailingZeros().toPlainString();
        return plain;
    }

    private static String scientific(BigDecimal rounded, int exponent) {
        String digits = rounded.unscaledValue().abs().toString();
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        StringBuilder sb = new StringBuilder();
        if (rounded.signum() < 0) {
            sb.append('-');
        }
        sb.append(digits.charAt(0));
        if (end > 1) {
            sb.append('.').append(digits, 1, end);
        }
        sb.append('e').append(exponent < 0 ? '-' : '+');
        int abs = Math.abs(exponent);
        if (abs < 10) {
            sb.append('0');
        }
        sb.append(abs);
        return sb.toString();
    }

    /**
     * Lua 5.1's string to number conversion (luaO_str2d): strtod after optional white space (so hex, inf
     * and nan are numbers), only white space after it; the string ends at its first NUL as in C.
     * Null when the string is not a number.
     */
    public static Double luaStringToNumber(byte[] s) {
        int start = 0;
        while (isSpace(at(s, start))) {
            start++;
        }
        Parsed parsed = strtod(s, start);
        if (parsed.end() == start) {
            return null;
        }
        int end = parsed.end();
        if ((at(s, end) | 0x20) == 'x') {
            return null; // "0x" without digits: strtod stopped at the x, and strtoul cannot do better
        }
        while (isSpace(at(s, end))) {
            end++;
        }
        return at(s, end) == 0 ? parsed.value() : null;
    }

    private static boolean isSpace(int c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    /** What strtod reads from data at start: the value and the index after it (end == start: nothing). */
    public record Parsed(double value, int end) {
    }

    /** strtod on a NUL-terminated byte string (bytes past the array read as NUL). */
    public static Parsed strtod(byte[] data, int start) {
        int i = start;
        boolean negative = false;
        if (at(data, i) == '+' || at(data, i) == '-') {
            negative = at(data, i) == '-';
            i++;
        }
        if (matchesIgnoreCase(data, i, "inf")) {
            i += 3;
            if (matchesIgnoreCase(data, i, "inity")) {
                i += 5;
            }
            return new Parsed(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY, i);
        }
        if (matchesIgnoreCase(data, i, "nan")) {
            i += 3;
            if (at(data, i) == '(') {
                int j = i + 1;
                while (Character.isLetterOrDigit(at(data, j)) || at(data, j) == '_') {
                    j++;
                }
                if (at(data, j) == ')') {
                    i = j + 1;
                }
            }
            double nan = Double.longBitsToDouble(negative ? 0xfff8000000000000L : 0x7ff8000000000000L);
            return new Parsed(nan, i);
        }
        if (at(data, i) == '0' && (at(data, i + 1) | 0x20) == 'x') {
            Parsed hex = hexFloat(data, i + 2, negative);
            if (hex != null) {
                return hex;
            }
        }
        return decimal(data, start, i);
    }

    private static Parsed decimal(byte[] data, int start, int digitsStart) {
        int i = digitsStart;
        int digits = 0;
        while (isDigit(at(data, i))) {
            i++;
            digits++;
        }
        if (at(data, i) == '.') {
            int j = i + 1;
            while (isDigit(at(data, j))) {
                j++;
                digits++;
            }
            if (digits > 0) {
                i = j;
            }
        }
        if (digits == 0) {
            return new Parsed(0, start);
        }
        if ((at(data, i) | 0x20) == 'e') {
            int j = i + 1;
            if (at(data, j) == '+' || at(data, j) == '-') {
                j++;
            }
            if (isDigit(at(data, j))) {
                while (isDigit(at(data, j))) {
                    j++;
                }
                i = j;
            }
        }
        String text = new String(data, start, i - start, java.nio.charset.StandardCharsets.US_ASCII);
        return new Parsed(Double.parseDouble(text), i);
    }

    private static Parsed hexFloat(byte[] data, int i, boolean negative) {
        StringBuilder mantissa = new StringBuilder();
        int j = i;
        int digits = 0;
        while (Character.digit(at(data, j), 16) >= 0) {
            mantissa.append((char) at(data, j++));
            digits++;
        }
        if (at(data, j) == '.') {
            int k = j + 1;
            StringBuilder fraction = new StringBuilder(".");
            while (Character.digit(at(data, k), 16) >= 0) {
                fraction.append((char) at(data, k++));
                digits++;
            }
            if (digits > 0) {
                mantissa.append(fraction);
                j = k;
            }
        }
        if (digits == 0) {
            return null;
        }
        String exponent = "0";
        if ((at(data, j) | 0x20) == 'p') {
            int k = j + 1;
            int signEnd = (at(data, k) == '+' || at(data, k) == '-') ? k + 1 : k;
            if (isDigit(at(data, signEnd))) {
                int e = signEnd;
                while (isDigit(at(data, e))) {
                    e++;
                }
                exponent = new String(data, k, e - k, java.nio.charset.StandardCharsets.US_ASCII);
                j = e;
            }
        }
        String m = mantissa.toString();
        if (m.startsWith(".")) {
            m = "0" + m;
        }
        double value = Double.parseDouble("0x" + m + "p" + exponent);
        return new Parsed(negative ? -value : value, j);
    }

    static int at(byte[] data, int i) {
        return i < data.length ? data[i] & 0xff : 0;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean matchesIgnoreCase(byte[] data, int i, String word) {
        for (int k = 0; k < word.length(); k++) {
            if ((at(data, i + k) | 0x20) != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
