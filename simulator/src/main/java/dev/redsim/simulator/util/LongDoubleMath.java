package dev.redsim.simulator.util;

import dev.redsim.simulator.error.RedisError;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * The x87 80-bit long double arithmetic that Redis 7.0 uses for INCRBYFLOAT and HINCRBYFLOAT, emulated exactly.
 *
 * <p>Redis parses both operands with strtold (correctly rounded to a 64-bit mantissa, round-half-even), adds
 * them in long double, refuses NaN and infinities, and prints the sum with "%.17Lf" before stripping trailing
 * zeros. Java has no long double, so a value here is an exact binary number {@code mantissa * 2^exponent} with
 * the mantissa rounded to 64 significant bits, and every step (parse, add, print) is done exactly with big
 * integers, rounding only where the FPU or glibc rounds.
 */
public final class LongDoubleMath {
    /** string2ld refuses strings of this many characters or more (MAX_LONG_DOUBLE_CHARS). */
    public static final int MAX_CHARS = 5 * 1024;
    private static final int MANTISSA_BITS = 64;
    /** Exponent of the lowest mantissa bit of the smallest subnormal: 2^-16445. */
    private static final int MIN_LSB_EXPONENT = -16445;
    /** Exponent of the lowest mantissa bit of the largest finite values: (2^64-1) * 2^16320. */
    private static final int MAX_LSB_EXPONENT = 16320;
    /** Decimal magnitudes beyond these overflow or underflow for sure; the exact path decides in between. */
    private static final long MAX_DECIMAL_MAGNITUDE = 4934;
    private static final long MIN_DECIMAL_MAGNITUDE = -4952;
    private static final int FRACTION_DIGITS = 17;

    /** Powers of 5 and 10 that ordinary operands need, computed once (immutable). */
    private static final BigInteger[] POWERS_OF_5 = powers(5, 160);
    private static final BigInteger[] POWERS_OF_10 = powers(10, 64);

    public static final RedisError NAN_OR_INFINITY = new RedisError("ERR increment would produce NaN or Infinity");

    private LongDoubleMath() {
    }

    /**
     * A long double: finite values are {@code mantissa * 2^exponent} (mantissa signed, at most 64 bits);
     * infinities have {@code infinite} set and the sign in {@code negative}.
     */
    public record Value(BigInteger mantissa, int exponent, boolean infinite, boolean negative) {
        static final Value ZERO = new Value(BigInteger.ZERO, 0, false, false);

        static Value infinity(boolean negative) {
            return new Value(BigInteger.ZERO, 0, true, negative);
        }

        public boolean isFinite() {
            return !infinite;
        }
    }

    private static BigInteger[] powers(int base, int count) {
        BigInteger[] table = new BigInteger[count];
        table[0] = BigInteger.ONE;
        for (int i = 1; i < count; i++) {
            table[i] = table[i - 1].multiply(BigInteger.valueOf(base));
        }
        return table;
    }

    private static BigInteger power(BigInteger[] table, int base, int exponent) {
        return exponent < table.length ? table[exponent] : BigInteger.valueOf(base).pow(exponent);
    }

    /**
     * INCRBYFLOAT: the stored text (null for a missing key) plus the increment, as the text Redis stores and
     * replies. Errors, in Redis's order: the stored value, then the increment ("value is not a valid float"),
     * then a NaN or infinite sum.
     *
     * <p>HINCRBYFLOAT checks in another order and with other texts (the increment first, before the key's type:
     * "value is not a valid float", an infinite increment: "value is NaN or Infinity", a bad field:
     * "hash value is not a float"); it can build on {@link #parse}, {@link #add(Value, Value)} and
     * {@link #format}.
     */
    public static byte[] add(byte[] current, byte[] increment) {
        Value value = current == null ? Value.ZERO : parse(current);
        if (value == null) {
            throw RedisError.NOT_FLOAT;
        }
        Value incr = parse(increment);
        if (incr == null) {
            throw RedisError.NOT_FLOAT;
        }
        Value sum = add(value, incr);
        if (!sum.isFinite()) {
            throw NAN_OR_INFINITY;
        }
        return format(sum);
    }

    /**
     * string2ld: strtold over the whole text. Null when Redis refuses it: empty, too long, a leading space,
     * trailing garbage, NaN, or a value that overflows or underflows to zero. "inf" is accepted (an infinite
     * value).
     */
    public static Value parse(byte[] text) {
        if (text.length == 0 || text.length >= MAX_CHARS || isSpace(text[0])) {
            return null;
        }
        // strtold must consume every byte: a NUL inside the text stops it early, so Redis refuses the text.
        return new Parser(text, text.length).parse();
    }

    /** The long double sum of two values (rounded to 64 bits, round-half-even; inf + -inf is NaN: null). */
    public static Value add(Value a, Value b) {
        if (a.infinite || b.infinite) {
            if (a.infinite && b.infinite && a.negative != b.negative) {
                return null;
            }
            return a.infinite ? a : b;
        }
        int low = Math.min(a.exponent, b.exponent);
        BigInteger sum = a.mantissa.shiftLeft(a.exponent - low).add(b.mantissa.shiftLeft(b.exponent - low));
        return round(sum.signum() < 0, sum.abs(), BigInteger.ONE, low);
    }

    /** "%.17Lf" with trailing zeros and a trailing dot removed, and "-0" written "0" (ld2string LD_STR_HUMAN). */
    public static byte[] format(Value value) {
        BigDecimal exact;
        if (value.exponent >= 0) {
            exact = new BigDecimal(value.mantissa.shiftLeft(value.exponent));
        } else {
            // m * 2^-k == m * 5^k / 10^k
            int k = -value.exponent;
            exact = new BigDecimal(value.mantissa.multiply(power(POWERS_OF_5, 5, k)), k);
        }
        String printed = exact.setScale(FRACTION_DIGITS, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = value.mantissa.signum() < 0;
        int len = printed.length();
        while (printed.charAt(len - 1) == '0') {
            len--;
        }
        if (printed.charAt(len - 1) == '.') {
            len--;
        }
        String result = printed.substring(0, len);
        if (result.equals("-0") || (result.equals("0") && negative)) {
            result = "0";
        }
        return result.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Rounds {@code num / den * 2^binaryExponent} (num, den positive) to a long double, round-half-even, with
     * subnormals and overflow to infinity as the FPU does.
     */
    static Value round(boolean negative, BigInteger num, BigInteger den, int binaryExponent) {
        if (num.signum() == 0) {
            return Value.ZERO;
        }
        // Scale so the integer quotient has at least 66 bits: 64 to keep, then the rounding bits.
        int shift = 66 - (num.bitLength() - den.bitLength());
        BigInteger[] qr = shift >= 0 ? num.shiftLeft(shift).divideAndRemainder(den)
                : num.divideAndRemainder(den.shiftLeft(-shift));
        BigInteger q = qr[0];
        boolean sticky = qr[1].signum() != 0;
        long exponent = (long) binaryExponent - shift; // value = (q + fraction) * 2^exponent
        long drop = q.bitLength() - MANTISSA_BITS;
        if (exponent + drop < MIN_LSB_EXPONENT) {
            drop = MIN_LSB_EXPONENT - exponent; // subnormal: fewer bits survive
        }
        BigInteger kept;
        if (drop > q.bitLength() + 1) {
            kept = BigInteger.ZERO; // below half of the smallest subnormal
        } else {
            int d = (int) drop;
            kept = q.shiftRight(d);
            boolean half = q.testBit(d - 1);
            boolean below = sticky || q.getLowestSetBit() < d - 1;
            if (half && (below || kept.testBit(0))) {
                kept = kept.add(BigInteger.ONE);
            }
        }
        long lsbExponent = exponent + drop;
        if (kept.bitLength() > MANTISSA_BITS) {
            kept = kept.shiftRight(1);
            lsbExponent++;
        }
        if (kept.signum() == 0) {
            return Value.ZERO;
        }
        if (lsbExponent > MAX_LSB_EXPONENT) {
            return Value.infinity(negative);
        }
        return new Value(negative ? kept.negate() : kept, (int) lsbExponent, false, negative);
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    /** strtold's grammar: sign, then "inf"/"infinity", "nan", a hex float or a decimal float. */
    private static final class Parser {
        private final byte[] s;
        private final int end;
        private int pos;

        Parser(byte[] s, int end) {
            this.s = s;
            this.end = end;
        }

        Value parse() {
            boolean negative = false;
            if (pos < end && (s[pos] == '+' || s[pos] == '-')) {
                negative = s[pos] == '-';
                pos++;
            }
            if (matchWord("infinity") || matchWord("inf")) {
                return pos == end ? Value.infinity(negative) : null;
            }
            if (matchWord("nan")) {
                return null; // NaN, with or without "(chars)", is always refused
            }
            Value v;
            if (pos + 1 < end && s[pos] == '0' && (s[pos + 1] == 'x' || s[pos + 1] == 'X') && hasHexDigits(pos + 2)) {
                pos += 2;
                v = hex(negative);
            } else {
                v = decimal(negative);
            }
            if (v == null || pos != end || v.infinite) {
                return null; // trailing text, or ERANGE overflow (strtold's HUGE_VALL)
            }
            return v;
        }

        private boolean matchWord(String word) {
            if (end - pos < word.length()) {
                return false;
            }
            for (int i = 0; i < word.length(); i++) {
                if (Character.toLowerCase((char) (s[pos + i] & 0xff)) != word.charAt(i)) {
                    return false;
                }
            }
            pos += word.length();
            return true;
        }

        /** "0x" counts as a hex prefix only when a hex digit follows (after an optional dot). */
        private boolean hasHexDigits(int at) {
            if (at < end && s[at] == '.') {
                at++;
            }
            return at < end && hexDigit(s[at]) >= 0;
        }

        private static int hexDigit(byte b) {
            if (b >= '0' && b <= '9') {
                return b - '0';
            }
            if ((b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F')) {
                return (b | 0x20) - 'a' + 10;
            }
            return -1;
        }

        private Value hex(boolean negative) {
            BigInteger digits;
            long binaryExponent = 0;
            boolean dot = false;
            StringBuilder hexDigits = new StringBuilder();
            for (; pos < end; pos++) {
                char c = (char) s[pos];
                if (c == '.' && !dot) {
                    dot = true;
                } else if (hexDigit(s[pos]) >= 0) {
                    hexDigits.append(c);
                    if (dot) {
                        binaryExponent -= 4;
                    }
                } else {
                    break;
                }
            }
            digits = new BigInteger(hexDigits.toString(), 16);
            if (pos < end && (s[pos] == 'p' || s[pos] == 'P')) {
                Long e = exponent();
                if (e != null) {
                    binaryExponent = saturatingAdd(binaryExponent, e);
                }
            }
            if (digits.signum() == 0) {
                return Value.ZERO;
            }
            long magnitude = binaryExponent + digits.bitLength();
            if (magnitude > 16400) {
                return Value.infinity(negative);
            }
            if (magnitude < -16500) {
                return null; // underflow to zero: ERANGE, refused
            }
            return finite(round(negative, digits, BigInteger.ONE, (int) binaryExponent));
        }

        private Value decimal(boolean negative) {
            // Significant digits (leading zeros skipped) go into a long while they fit, else into a StringBuilder.
            StringBuilder digits = null;
            long small = 0;
            int significant = 0;
            boolean anyDigit = false;
            long decimalExponent = 0;
            boolean dot = false;
            int start = pos;
            for (; pos < end; pos++) {
                byte c = s[pos];
                if (c == '.' && !dot) {
                    dot = true;
                } else if (c >= '0' && c <= '9') {
                    anyDigit = true;
                    if (dot) {
                        decimalExponent--;
                    }
                    if (significant == 0 && c == '0') {
                        continue;
                    }
                    significant++;
                    if (significant <= 18) {
                        small = small * 10 + (c - '0');
                    } else {
                        if (digits == null) {
                            digits = new StringBuilder().append(small);
                        }
                        digits.append((char) c);
                    }
                } else {
                    break;
                }
            }
            if (!anyDigit) {
                pos = start;
                return null; // no conversion
            }
            if (pos < end && (s[pos] == 'e' || s[pos] == 'E')) {
                Long e = exponent();
                if (e != null) {
                    decimalExponent = saturatingAdd(decimalExponent, e);
                }
            }
            if (significant == 0) {
                return Value.ZERO;
            }
            BigInteger mantissa = digits == null ? BigInteger.valueOf(small) : new BigInteger(digits.toString());
            long magnitude = decimalExponent + significant;
            if (magnitude > MAX_DECIMAL_MAGNITUDE) {
                return Value.infinity(negative);
            }
            if (magnitude < MIN_DECIMAL_MAGNITUDE) {
                return null;
            }
            int e = (int) decimalExponent;
            Value v = e >= 0
                    ? round(negative, mantissa.multiply(power(POWERS_OF_10, 10, e)), BigInteger.ONE, 0)
                    : round(negative, mantissa, power(POWERS_OF_10, 10, -e), 0);
            return finite(v);
        }

        /** A nonzero literal that rounds to zero is an ERANGE underflow, which Redis refuses. */
        private static Value finite(Value v) {
            return v.mantissa.signum() == 0 && !v.infinite ? null : v;
        }

        /**
         * The exponent after 'e' or 'p': optional sign and at least one digit, else strtold stops before the
         * letter (pos is left on it, which makes the text invalid for Redis). Saturates on huge exponents.
         */
        private Long exponent() {
            int at = pos + 1;
            boolean negative = false;
            if (at < end && (s[at] == '+' || s[at] == '-')) {
                negative = s[at] == '-';
                at++;
            }
            if (at >= end || s[at] < '0' || s[at] > '9') {
                return null;
            }
            long value = 0;
            for (; at < end && s[at] >= '0' && s[at] <= '9'; at++) {
                value = Math.min(value * 10 + (s[at] - '0'), 1_000_000_000L);
            }
            pos = at;
            return negative ? -value : value;
        }

        private static long saturatingAdd(long a, long b) {
            long r = a + b;
            return Math.max(-4_000_000_000L, Math.min(4_000_000_000L, r));
        }
    }
}
