package dev.redsim.simulator.protocol;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats doubles exactly as C's printf("%.17g") does, which is how Redis 7.0 replies scores and other doubles
 * (e.g. 1.1 becomes "1.1000000000000001", 1e20 becomes "1e+20").
 */
public final class DoubleFormat {
    private static final MathContext SEVENTEEN = new MathContext(17, RoundingMode.HALF_EVEN);

    private DoubleFormat() {
    }

    /** The text of a double reply: "inf", "-inf", "nan" or %.17g. */
    public static String reply(double value) {
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (Double.isNaN(value)) {
            return "nan";
        }
        // Fast path for whole numbers below 1e17 (most scores): %.17g prints them as plain integers.
        if (value == Math.rint(value) && Math.abs(value) < 1e17 && value != 0) {
            return Long.toString((long) value);
        }
        return g(value, 17);
    }

    /** printf("%.<precision>g") for finite values. */
    public static String g(double value, int precision) {
        if (value == 0) {
            return (1 / value < 0) ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(value).round(precision == 17 ? SEVENTEEN : new MathContext(precision, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= precision) {
            BigDecimal mantissa = rounded.movePointLeft(exponent);
            String digits = stripZeros(mantissa.toPlainString());
            String exp = Integer.toString(Math.abs(exponent));
            return digits + "e" + (exponent < 0 ? "-" : "+") + (exp.length() < 2 ? "0" + exp : exp);
        }
        return stripZeros(rounded.toPlainString());
    }

    private static String stripZeros(String text) {
        if (text.indexOf('.') < 0) {
            return text;
        }
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        if (text.charAt(end - 1) == '.') {
            end--;
        }
        return text.substring(0, end);
    }
}
