package dev.redsim.simulator.commands.geo;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * sin, cos and asin rounded correctly to the nearest double, as glibc's libm (which Redis calls) returns them in
 * all but about one case in a thousand. Java's own functions are allowed an error of one unit in the last place
 * and StrictMath's asin differs from glibc's in about 3% of arguments: distances stored by STOREDIST print 17
 * digits, so they would show. Arguments are reduced by multiples of pi/2 (pi/2 held in three parts), then the
 * Taylor polynomials are evaluated in double-double arithmetic (about 106 bits) and rounded once.
 */
final class GeoTrigonometry {
    /** 1/n! as double-double, n = 0..31. */
    private static final double[] INV_FACTORIAL_HI = new double[32];
    private static final double[] INV_FACTORIAL_LO = new double[32];
    /** pi/2 in three parts whose sum is good to about 160 bits. */
    private static final double PIO2_1;
    private static final double PIO2_2;
    private static final double PIO2_3;

    static {
        MathContext precision = new MathContext(80);
        BigDecimal factorial = BigDecimal.ONE;
        for (int n = 0; n < 32; n++) {
            if (n > 0) {
                factorial = factorial.multiply(BigDecimal.valueOf(n));
            }
            BigDecimal inverse = BigDecimal.ONE.divide(factorial, precision);
            INV_FACTORIAL_HI[n] = inverse.doubleValue();
            INV_FACTORIAL_LO[n] = inverse.subtract(new BigDecimal(INV_FACTORIAL_HI[n])).doubleValue();
        }
        BigDecimal halfPi = new BigDecimal("1.57079632679489661923132169163975144209858469968755291048747229615390820314310449931401741267105853399107404326");
        PIO2_1 = halfPi.doubleValue();
        BigDecimal rest = halfPi.subtract(new BigDecimal(PIO2_1));
        PIO2_2 = rest.doubleValue();
        PIO2_3 = rest.subtract(new BigDecimal(PIO2_2)).doubleValue();
    }

    private GeoTrigonometry() {
    }

    static double sin(double x) {
        if (!(Math.abs(x) <= 4)) {
            return StrictMath.sin(x); // beyond what geo asks for (and NaN, infinities): the library's own
        }
        double[] r = new double[2];
        int quadrant = reduce(x, r);
        double[] out = new double[2];
        switch (quadrant) {
            case 0 -> sinPolynomial(r[0], r[1], out, false);
            case 1 -> cosPolynomial(r[0], r[1], out, false);
            case 2 -> sinPolynomial(r[0], r[1], out, true);
            default -> cosPolynomial(r[0], r[1], out, true);
        }
        return out[0];
    }

    static double cos(double x) {
        if (!(Math.abs(x) <= 4)) {
            return StrictMath.cos(x);
        }
        double[] r = new double[2];
        int quadrant = reduce(x, r);
        double[] out = new double[2];
        switch (quadrant) {
            case 0 -> cosPolynomial(r[0], r[1], out, false);
            case 1 -> sinPolynomial(r[0], r[1], out, true);
            case 2 -> cosPolynomial(r[0], r[1], out, true);
            default -> sinPolynomial(r[0], r[1], out, false);
        }
        return out[0];
    }

    /** asin for y in [-1, 1]: one Newton step from the library's value, with sin in double-double; NaN outside. */
    static double asin(double y) {
        if (!(Math.abs(y) <= 1)) {
            return Double.NaN;
        }
        double x0 = StrictMath.asin(y);
        double c = StrictMath.cos(x0);
        if (c == 0) {
            return x0;
        }
        double[] r = new double[2];
        int quadrant = reduce(x0, r); // |x0| <= pi/2: quadrant -1, 0 or 1
        double[] s = new double[2];
        if (quadrant == 0) {
            sinPolynomial(r[0], r[1], s, false);
        } else {
            cosPolynomial(r[0], r[1], s, quadrant != 1);
        }
        // y - sin(x0): nearly all of it cancels; the double-double keeps what remains
        double d = y - s[0];
        double bb = d - y;
        double e = (y - (d - bb)) + (-s[0] - bb) - s[1];
        return x0 + (d + e) / c;
    }

    /** x - k*pi/2 in double-double into r; returns k mod 4 (0..3). */
    private static int reduce(double x, double[] r) {
        int k = (int) Math.rint(x / PIO2_1);
        if (k == 0) {
            r[0] = x;
            r[1] = 0;
            return 0;
        }
        // k * PIO2_1 exactly as a double-double, then subtract the parts, smallest last
        double p = k * PIO2_1;
        double pe = Math.fma(k, PIO2_1, -p);
        double s = x - p; // exact: x and p are within a factor of two (Sterbenz) or k is small
        double t = s - pe;
        double te = (s - t) - pe;
        double u = t - k * PIO2_2;
        double ue = ((t - u) - k * PIO2_2) + te - Math.fma(k, PIO2_2, -(k * PIO2_2)) - k * PIO2_3;
        double hi = u + ue;
        r[0] = hi;
        r[1] = ue - (hi - u);
        return k & 3;
    }

    /** sin(r) for |r| <= pi/4 + a little, r = rh + rl, as double-double into out (negated if asked). */
    private static void sinPolynomial(double rh, double rl, double[] out, boolean negate) {
        // r^2
        double r2h = rh * rh;
        double r2l = Math.fma(rh, rh, -r2h) + 2 * rh * rl;
        double t = r2h + r2l;
        r2l = r2l - (t - r2h);
        r2h = t;
        // Horner in r^2 over (-1)^k / (2k+1)!, k from 13 down to 0
        double sh = 0;
        double sl = 0;
        for (int k = 13; k >= 0; k--) {
            // s = s * r2
            double ph = sh * r2h;
            double pl = Math.fma(sh, r2h, -ph) + (sh * r2l + sl * r2h);
            // s = p + c
            double ch = (k & 1) == 0 ? INV_FACTORIAL_HI[2 * k + 1] : -INV_FACTORIAL_HI[2 * k + 1];
            double cl = (k & 1) == 0 ? INV_FACTORIAL_LO[2 * k + 1] : -INV_FACTORIAL_LO[2 * k + 1];
            double a = ph + ch;
            double bb = a - ph;
            double e = (ph - (a - bb)) + (ch - bb) + pl + cl;
            sh = a + e;
            sl = e - (sh - a);
        }
        // times r
        double ph = sh * rh;
        double pl = Math.fma(sh, rh, -ph) + (sh * rl + sl * rh);
        double hi = ph + pl;
        double lo = pl - (hi - ph);
        out[0] = negate ? -hi : hi;
        out[1] = negate ? -lo : lo;
    }

    /** cos(r) for |r| <= pi/4 + a little, as double-double into out (negated if asked). */
    private static void cosPolynomial(double rh, double rl, double[] out, boolean negate) {
        double r2h = rh * rh;
        double r2l = Math.fma(rh, rh, -r2h) + 2 * rh * rl;
        double t = r2h + r2l;
        r2l = r2l - (t - r2h);
        r2h = t;
        double sh = 0;
        double sl = 0;
        for (int k = 14; k >= 0; k--) {
            double ph = sh * r2h;
            double pl = Math.fma(sh, r2h, -ph) + (sh * r2l + sl * r2h);
            double ch = (k & 1) == 0 ? INV_FACTORIAL_HI[2 * k] : -INV_FACTORIAL_HI[2 * k];
            double cl = (k & 1) == 0 ? INV_FACTORIAL_LO[2 * k] : -INV_FACTORIAL_LO[2 * k];
            double a = ph + ch;
            double bb = a - ph;
            double e = (ph - (a - bb)) + (ch - bb) + pl + cl;
            sh = a + e;
            sl = e - (sh - a);
        }
        out[0] = negate ? -sh : sh;
        out[1] = negate ? -sl : sl;
    }
}
