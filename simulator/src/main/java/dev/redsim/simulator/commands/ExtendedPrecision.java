package dev.redsim.simulator.commands;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The x87 80-bit "long double" arithmetic Redis uses for HINCRBYFLOAT: strtold parsing (correctly rounded to a
 * 64-bit significand), addition rounded the same way, and ld2string's "%.17Lf" with trailing zeros removed.
 * Values are held as exact decimals of the binary number they stand for, so formatting is exact as glibc's is.
 *
 * <p>A private stand-in for the shared util/LongDoubleMath written on the strings branch; the two are to be
 * merged into one.
 */
final class ExtendedPrecision {
    private static final int SIGNIFICAND_BITS = 64;
    /** Largest finite long double is just under 2^16384. */
    private static final int MAX_EXPONENT = 16384;
    /** Smallest subnormal long double is 2^-16445: anything that rounds below it is an underflow. */
    private static final int MIN_EXPONENT = -16445;
    private static final Pattern DECIMAL = Pattern.compile("([+-]?)(\\d+\\.?\\d*|\\.\\d+)(?:[eE]([+-]?\\d+))?");
    private static final Pattern HEX = Pattern.compile(
            "([+-]?)0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)(?:[pP]([+-]?\\d+))?");
    private static final Pattern INFINITY = Pattern.compile("([+-]?)(?i:inf|infinity)");

    private ExtendedPrecision() {
    }

    /** A parsed long double: finite with its exact value, or an infinity (sign in {@code negative}). */
    record Value(BigDecimal exact, boolean infinite, boolean negative) {
        static Value finite(BigDecimal exact) {
            return new Value(exact, false, exact.signum() < 0);
        }

        static Value infinity(boolean negative) {
            return new Value(null, true, negative);
        }
    }

    /**
     * Parses as Redis's string2ld: the whole text must be a strtold number with no leading space; NaN, overflow
     * and underflow to zero are rejected. Returns null when rejected.
     */
    static Value parse(byte[] bytes) {
        if (bytes.length == 0 || bytes.length >= 5 * 1024) {
            return null;
        }
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        Matcher m = INFINITY.matcher(text);
        if (m.matches()) {
            return Value.infinity(m.group(1).equals("-"));
        }
        m = HEX.matcher(text);
        if (m.matches()) {
            return fromHex(m);
        }
        m = DECIMAL.matcher(text);
        if (m.matches()) {
            return fromDecimal(m);
        }
        return null;
    }

    private static Value fromDecimal(Matcher m) {
        String digits = m.group(2);
        long exponent = 0;
        if (m.group(3) != null) {
            String e = m.group(3);
            // Exponents far outside the long double range only decide between zero and overflow.
            exponent = e.replaceFirst("^[+-]", "").replaceFirst("^0+", "").length() > 6
                    ? (e.startsWith("-") ? -10_000_000L : 10_000_000L) : Long.parseLong(e);
        }
        BigDecimal unsigned = new BigDecimal(digits.endsWith(".") ? digits + "0" : digits);
        if (unsigned.signum() == 0) {
            return Value.finite(BigDecimal.ZERO);
        }
        long magnitude = unsigned.precision() - unsigned.scale() + exponent; // decimal digits before the point
        if (magnitude > 4940) {
            return null; // overflow: ERANGE with HUGE_VAL
        }
        if (magnitude < -4960) {
            return null; // underflow to zero
        }
        BigDecimal exact = unsigned.scaleByPowerOfTen((int) exponent);
        return finiteOrNull(round(m.group(1).equals("-") ? exact.negate() : exact));
    }

    private static Value fromHex(Matcher m) {
        String digits = m.group(2);
        int point = digits.indexOf('.');
        String fraction = point < 0 ? "" : digits.substring(point + 1);
        String whole = (point < 0 ? digits : digits.substring(0, point)) + fraction;
        BigInteger mantissa = new BigInteger(whole.isEmpty() ? "0" : whole, 16);
        if (mantissa.signum() == 0) {
            return Value.finite(BigDecimal.ZERO);
        }
        long exponent = m.group(3) == null ? 0 : Long.parseLong(m.group(3)) - 4L * fraction.length();
        if (exponent + mantissa.bitLength() > MAX_EXPONENT || exponent + mantissa.bitLength() < MIN_EXPONENT) {
            return null;
        }
        BigDecimal exact = exponent >= 0
                ? new BigDecimal(mantissa.shiftLeft((int) exponent))
                : new BigDecimal(mantissa.multiply(BigInteger.valueOf(5).pow((int) -exponent)), (int) -exponent);
        return finiteOrNull(round(m.group(1).equals("-") ? exact.negate() : exact));
    }

    /** strtold reports a value that rounds to infinity as an overflow, which string2ld rejects. */
    private static Value finiteOrNull(Value value) {
        return value.infinite() ? null : value;
    }

    /** a + b in long double: infinities propagate, opposite infinities give null (NaN). */
    static Value add(Value a, Value b) {
        if (a.infinite() || b.infinite()) {
            if (a.infinite() && b.infinite() && a.negative() != b.negative()) {
                return null;
            }
            return Value.infinity(a.infinite() ? a.negative() : b.negative());
        }
        return round(a.exact().add(b.exact()));
    }

    /** Rounds an exact value to the nearest long double (ties to even), or an infinity when it overflows. */
    static Value round(BigDecimal exact) {
        if (exact.signum() == 0) {
            return Value.finite(BigDecimal.ZERO);
        }
        boolean negative = exact.signum() < 0;
        BigDecimal a = exact.abs();
        BigInteger num;
        BigInteger den;
        if (a.scale() <= 0) {
            num = a.unscaledValue().multiply(BigInteger.TEN.pow(-a.scale()));
            den = BigInteger.ONE;
        } else {
            num = a.unscaledValue();
            den = BigInteger.TEN.pow(a.scale());
        }
        // Find e with 2^63 <= a / 2^e < 2^64, then round the quotient to an integer.
        int e = num.bitLength() - den.bitLength() - SIGNIFICAND_BITS;
        BigInteger[] qr;
        while (true) {
            qr = e >= 0 ? num.divideAndRemainder(den.shiftLeft(e)) : num.shiftLeft(-e).divideAndRemainder(den);
            int bits = qr[0].bitLength();
            if (bits > SIGNIFICAND_BITS) {
                e++;
            } else if (bits < SIGNIFICAND_BITS) {
                e--;
            } else {
                break;
            }
        }
        BigInteger divisor = e >= 0 ? den.shiftLeft(e) : den;
        BigInteger q = qr[0];
        int half = qr[1].shiftLeft(1).compareTo(divisor);
        if (half > 0 || (half == 0 && q.testBit(0))) {
            q = q.add(BigInteger.ONE);
            if (q.bitLength() > SIGNIFICAND_BITS) {
                q = q.shiftRight(1);
                e++;
            }
        }
        if (e + SIGNIFICAND_BITS > MAX_EXPONENT) {
            return Value.infinity(negative);
        }
        BigDecimal value = e >= 0
                ? new BigDecimal(q.shiftLeft(e))
                : new BigDecimal(q.multiply(BigInteger.valueOf(5).pow(-e)), -e);
        return Value.finite(negative ? value.negate() : value);
    }

    /** ld2string's human form: "%.17Lf", trailing zeros and a trailing point removed, "-0" as "0". */
    static byte[] format(BigDecimal exact) {
        String text = exact.setScale(17, RoundingMode.HALF_EVEN).toPlainString();
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        if (text.charAt(end - 1) == '.') {
            end--;
        }
        text = text.substring(0, end);
        if (text.equals("-0")) {
            text = "0";
        }
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
