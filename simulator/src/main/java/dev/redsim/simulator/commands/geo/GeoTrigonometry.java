package dev.redsim.simulator.commands.geo;

/**
 * sin, cos and asin rounded correctly to the nearest double, as glibc's libm (which Redis calls) returns them in
 * all but about one case in a thousand. Java's own functions are allowed an error of one unit in the last place
 * and StrictMath's asin differs from glibc's in about 3% of arguments: distances stored by STOREDIST print 17
 * digits, so they would show. The values are evaluated in double-double arithmetic (about 106 bits), by Taylor
 * series for the arguments geo uses (|x| at most a little over pi), then rounded once.
 */
final class GeoTrigonometry {
    private GeoTrigonometry() {
    }

    static double sin(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            return Math.sin(x);
        }
        if (Math.abs(x) > 4) {
            return StrictMath.sin(x); // outside what geo asks for: the library's own, within an ulp
        }
        double[] s = sinDd(x);
        return s[0] + s[1];
    }

    static double cos(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            return Math.cos(x);
        }
        if (Math.abs(x) > 4) {
            return StrictMath.cos(x);
        }
        double[] c = cosDd(x);
        return c[0] + c[1];
    }

    /** asin for y in [-1, 1] by one Newton step from the library's value, in double-double; NaN outside. */
    static double asin(double y) {
        if (!(Math.abs(y) <= 1)) {
            return Double.NaN;
        }
        double x0 = StrictMath.asin(y);
        double[] s = sinDd(x0);
        // y - sin(x0), exactly enough: the difference is tiny, its bits lie below those of y
        double[] r = add(y, 0, -s[0], -s[1]);
        double c = StrictMath.cos(x0);
        if (c == 0) {
            return x0;
        }
        double delta = (r[0] + r[1]) / c;
        return x0 + delta;
    }

    /** sin(x) as a double-double {hi, lo}. */
    private static double[] sinDd(double x) {
        double[] x2 = mul(x, 0, x, 0);
        double[] term = {x, 0};
        double[] sum = {x, 0};
        for (int k = 1; k < 40; k++) {
            term = mul(term[0], term[1], -x2[0], -x2[1]);
            term = div(term[0], term[1], (2.0 * k) * (2.0 * k + 1));
            sum = add(sum[0], sum[1], term[0], term[1]);
            if (Math.abs(term[0]) < 1e-40 * Math.abs(sum[0]) || term[0] == 0) {
                break;
            }
        }
        return sum;
    }

    /** cos(x) as a double-double {hi, lo}. */
    private static double[] cosDd(double x) {
        double[] x2 = mul(x, 0, x, 0);
        double[] term = {1, 0};
        double[] sum = {1, 0};
        for (int k = 1; k < 40; k++) {
            term = mul(term[0], term[1], -x2[0], -x2[1]);
            term = div(term[0], term[1], (2.0 * k - 1) * (2.0 * k));
            sum = add(sum[0], sum[1], term[0], term[1]);
            if (Math.abs(term[0]) < 1e-40 * Math.abs(sum[0]) || term[0] == 0) {
                break;
            }
        }
        return sum;
    }

    // ---- double-double arithmetic (Dekker, Knuth; exact products by fma) ----

    private static double[] add(double ah, double al, double bh, double bl) {
        double s = ah + bh;
        double bb = s - ah;
        double e = (ah - (s - bb)) + (bh - bb);
        e += al + bl;
        return quickTwoSum(s, e);
    }

    private static double[] mul(double ah, double al, double bh, double bl) {
        double p = ah * bh;
        double e = Math.fma(ah, bh, -p);
        e += ah * bl + al * bh;
        return quickTwoSum(p, e);
    }

    private static double[] div(double ah, double al, double b) {
        double q1 = ah / b;
        double[] back = mul(q1, 0, b, 0);
        double[] r = add(ah, al, -back[0], -back[1]);
        double q2 = r[0] / b;
        return quickTwoSum(q1, q2);
    }

    private static double[] quickTwoSum(double a, double b) {
        double s = a + b;
        return new double[] {s, b - (s - a)};
    }
}
