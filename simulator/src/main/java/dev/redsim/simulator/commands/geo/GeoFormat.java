package dev.redsim.simulator.commands.geo;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** How Redis prints geo numbers: glibc's printf, which rounds the exact binary value half to even. */
final class GeoFormat {
    private GeoFormat() {
    }

    /** Distances: "%.4f" (addReplyDoubleDistance). */
    static String distance(double d) {
        return fixed(d, 4);
    }

    /** Coordinates: "%.17Lf" without trailing zeros or dot, "-0" as "0" (addReplyHumanLongDouble). */
    static String coordinate(double d) {
        String printed = fixed(d, 17);
        int end = printed.length();
        while (printed.charAt(end - 1) == '0') {
            end--;
        }
        if (printed.charAt(end - 1) == '.') {
            end--;
        }
        String trimmed = printed.substring(0, end);
        return trimmed.equals("-0") ? "0" : trimmed;
    }

    /** printf's "%.Nf", infinities and NaN included. */
    static String fixed(double d, int decimals) {
        if (Double.isNaN(d)) {
            return Double.doubleToRawLongBits(d) < 0 ? "-nan" : "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        String printed = new BigDecimal(d).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        boolean negativeZero = d == 0 && Double.doubleToRawLongBits(d) < 0;
        return negativeZero || (d < 0 && !printed.startsWith("-")) ? "-" + printed : printed;
    }
}
