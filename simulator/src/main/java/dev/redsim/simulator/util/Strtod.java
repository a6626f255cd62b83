package dev.redsim.simulator.util;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * glibc's strtod on a C string: skips leading white space, reads the longest prefix that is a number (decimal,
 * hexadecimal, "inf"/"infinity", "nan"), stops at the first byte that is not part of it or at a NUL byte, and
 * reports ERANGE for results that overflow or underflow (subnormal and inexact, or rounded to zero). For commands
 * that call strtod directly and look at where it stopped (SORT's scores).
 */
public final class Strtod {
    /**
     * What strtod returned: the value, the index it stopped at, whether it set errno to ERANGE, and whether it
     * stopped at the end of the C string (its first NUL, or the end of the bytes).
     */
    public record Result(double value, int end, boolean erange, boolean atEnd) {
    }

    private Strtod() {
    }

    public static Result parse(byte[] s) {
        int length = 0;
        while (length < s.length && s[length] != 0) {
            length++;
        }
        Result r = scan(s);
        return new Result(r.value(), r.end(), r.erange(), r.end() == length);
    }

    private static Result scan(byte[] s) {
        int length = 0;
        while (length < s.length && s[length] != 0) {
            length++; // a C string ends at its first NUL
        }
        int i = 0;
        while (i < length && isSpace(s[i])) {
            i++;
        }
        int start = i;
        boolean negative = false;
        if (i < length && (s[i] == '+' || s[i] == '-')) {
            negative = s[i] == '-';
            i++;
        }
        int word = matchWord(s, i, length);
        if (word > 0) {
            boolean nan = lower(s[i]) == 'n';
            double value = nan ? Double.NaN : Double.POSITIVE_INFINITY;
            return new Result(negative ? -value : value, i + word, false, false);
        }
        if (i + 1 < length && s[i] == '0' && lower(s[i + 1]) == 'x') {
            Result hex = hex(s, start, i + 2, length, negative);
            if (hex != null) {
                return hex;
            }
            // "0x" without hex digits: strtod reads the "0" alone
            return new Result(negative ? -0.0 : 0.0, i + 1, false, false);
        }
        int digitsStart = i;
        int digits = 0;
        while (i < length && isDigit(s[i])) {
            i++;
            digits++;
        }
        if (i < length && s[i] == '.') {
            i++;
            while (i < length && isDigit(s[i])) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return new Result(0.0, 0, false, false); // no conversion: the end is the string's start
        }
        int mantissaEnd = i;
        if (i < length && lower(s[i]) == 'e') {
            int j = i + 1;
            if (j < length && (s[j] == '+' || s[j] == '-')) {
                j++;
            }
            if (j < length && isDigit(s[j])) {
                while (j < length && isDigit(s[j])) {
                    j++;
                }
                i = j;
            }
        }
        String text = new String(s, digitsStart, i - digitsStart, StandardCharsets.ISO_8859_1);
        double magnitude = Double.parseDouble(text);
        boolean erange = Double.isInfinite(magnitude) || underflows(magnitude, () -> new BigDecimal(text));
        return new Result(negative ? -magnitude : magnitude, i, erange, false);
    }

    private static Result hex(byte[] s, int start, int at, int length, boolean negative) {
        int i = at;
        BigInteger mantissa = BigInteger.ZERO;
        int fractionDigits = 0;
        int digits = 0;
        while (i < length && hexDigit(s[i]) >= 0) {
            mantissa = mantissa.shiftLeft(4).add(BigInteger.valueOf(hexDigit(s[i])));
            i++;
            digits++;
        }
        if (i < length && s[i] == '.') {
            i++;
            while (i < length && hexDigit(s[i]) >= 0) {
                mantissa = mantissa.shiftLeft(4).add(BigInteger.valueOf(hexDigit(s[i])));
                i++;
                digits++;
                fractionDigits++;
            }
        }
        if (digits == 0) {
            return null;
        }
        long exponent = 0;
        if (i < length && lower(s[i]) == 'p') {
            int j = i + 1;
            boolean minus = false;
            if (j < length && (s[j] == '+' || s[j] == '-')) {
                minus = s[j] == '-';
                j++;
            }
            if (j < length && isDigit(s[j])) {
                while (j < length && isDigit(s[j])) {
                    exponent = Math.min(exponent * 10 + (s[j] - '0'), 100_000);
                    j++;
                }
                exponent = minus ? -exponent : exponent;
                i = j;
            }
        }
        long binaryExponent = exponent - 4L * fractionDigits;
        String literal = "0x" + mantissa.toString(16) + "p" + binaryExponent;
        double magnitude = mantissa.signum() == 0 ? 0.0 : Double.parseDouble(literal);
        BigDecimal exact = binaryExponent >= 0 ? new BigDecimal(mantissa.shiftLeft((int) Math.min(binaryExponent, 1_000_000)))
                : new BigDecimal(mantissa).divide(new BigDecimal(BigInteger.ONE.shiftLeft((int) Math.min(-binaryExponent, 1_000_000))));
        boolean erange = Double.isInfinite(magnitude) || underflows(magnitude, () -> exact);
        return new Result(negative ? -magnitude : magnitude, i, erange, false);
    }

    /** Zero from a nonzero number, or a subnormal that is not exactly the number: glibc's underflow. */
    private static boolean underflows(double magnitude, java.util.function.Supplier<BigDecimal> exact) {
        if (magnitude != 0 && magnitude >= Double.MIN_NORMAL) {
            return false;
        }
        BigDecimal wanted = exact.get();
        if (magnitude == 0) {
            return wanted.signum() != 0;
        }
        return new BigDecimal(magnitude).compareTo(wanted) != 0;
    }

    /** Length of "inf", "infinity" or "nan" (any case) at i, else 0. */
    private static int matchWord(byte[] s, int i, int length) {
        if (startsWith(s, i, length, "infinity")) {
            return 8;
        }
        if (startsWith(s, i, length, "inf") || startsWith(s, i, length, "nan")) {
            return 3;
        }
        return 0;
    }

    private static boolean startsWith(byte[] s, int i, int length, String word) {
        if (i + word.length() > length) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            if (lower(s[i + k]) != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static int lower(byte b) {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static int hexDigit(byte b) {
        if (isDigit(b)) {
            return b - '0';
        }
        int l = lower(b);
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }
}
