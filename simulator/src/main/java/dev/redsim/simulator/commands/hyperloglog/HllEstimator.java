package dev.redsim.simulator.commands.hyperloglog;

/**
 * The cardinality estimate from the register histogram, as Redis computes it since 5.0: Otmar Ertl's improved
 * estimator ("New cardinality estimation algorithms for HyperLogLog sketches", arXiv:1702.01284), in doubles,
 * rounded to the nearest integer.
 */
final class HllEstimator {
    private static final double ALPHA_INF = 0.721347520444481703680; // 0.5 / ln(2)

    private HllEstimator() {
    }

    static long estimate(int[] histogram) {
        double m = Hll.REGISTERS;
        double z = m * tau((m - histogram[Hll.Q + 1]) / m);
        for (int j = Hll.Q; j >= 1; j--) {
            z += histogram[j];
            z *= 0.5;
        }
        z += m * sigma(histogram[0] / m);
        return Math.round(ALPHA_INF * m * m / z);
    }

    private static double sigma(double x) {
        if (x == 1.0) {
            return Double.POSITIVE_INFINITY;
        }
        double y = 1;
        double z = x;
        double previous;
        do {
            x *= x;
            previous = z;
            z += x * y;
            y += y;
        } while (previous != z);
        return z;
    }

    private static double tau(double x) {
        if (x == 0.0 || x == 1.0) {
            return 0.0;
        }
        double y = 1.0;
        double z = 1 - x;
        double previous;
        do {
            x = Math.sqrt(x);
            previous = z;
            y *= 0.5;
            double d = 1 - x;
            z -= d * d * y; // pow(1 - x, 2): a correctly rounded square, as glibc's pow gives
        } while (previous != z);
        return z / 3;
    }
}
