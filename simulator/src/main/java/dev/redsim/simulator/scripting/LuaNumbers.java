package dev.redsim.simulator.scripting;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers as Redis's Lua 5.1 prints and converts them: C's "%.14g" for tostring, "%.17g" for numbers passed
 * to redis.call, and C's (long long) cast when a number becomes an integer reply.
 */
public final class LuaNumbers {
    private LuaNumbers() {
    }

    /** Lua 5.1's tostring of a number (LUAI_NUMFFORMAT "%.14g"). */
    public static String toLuaString(double v) {
        return formatG(v, 14);
    }

    /** What Redis passes to a command for a number argument ("%.17g"). */
    public static String toArgument(double v) {
        return formatG(v, 17);
    }

    /**
     * C's (long long) cast on x86-64: truncation toward zero, and the "integer indefinite" value for NaN and
     * anything out of range (where Java would saturate instead).
     */
    public static long toInteger(double v) {
        if (Double.isNaN(v) || v >= 0x1p63 || v < -0x1p63) {
            return Long.MIN_VALUE;
        }
        return (long) v;
    }

    /** printf's %.{precision}g, exactly as glibc prints it. */
    static String formatG(double v, int precision) {
        if (Double.isNaN(v)) {
            // x86 produces 0/0 with the sign bit set ("-nan") where Java's canonical NaN has it clear.
            return Double.doubleToRawLongBits(v) < 0 ? "nan" : "-nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return 1 / v < 0 ? "-0" : "0";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15 && precision >= 15) {
            return Long.toString((long) v);
        }
        BigDecimal rounded = new BigDecimal(v).round(new MathContext(precision, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= precision) {
            return scientific(rounded, exponent);
        }
        BigDecimal plain = rounded.stripTrailingZeros();
        return plain.scale() <= 0 ? plain.toBigInteger().toString() : plain.toPlainString();
    }

    private static String scientific(BigDecimal rounded, int exponent) {
        String digits = rounded.unscaledValue().abs().toString().replaceAll("0+$", "");
        StringBuilder out = new StringBuilder();
        if (rounded.signum() < 0) {
            out.append('-');
        }
        out.append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('e').append(exponent < 0 ? '-' : '+');
        int abs = Math.abs(exponent);
        if (abs < 10) {
            out.append('0');
        }
        return out.append(abs).toString();
    }
}
