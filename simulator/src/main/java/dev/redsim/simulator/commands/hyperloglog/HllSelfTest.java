package dev.redsim.simulator.commands.hyperloglog;

import java.util.SplittableRandom;

/**
 * PFSELFTEST: Redis's own checks of the implementation, run on this one. The dense register packing with random
 * values, then ten million distinct elements added to a dense and a sparse HLL side by side: the sparse one must
 * stay sparse while small, both must agree, and each estimate at 1, 10, 100, ... must lie within six standard
 * errors. Like Redis, it takes a while (the command is for debugging); "OK" or a TESTFAILED error.
 */
final class HllSelfTest {
    private static final int CYCLES = 1000;

    private HllSelfTest() {
    }

    static String run(long sparseMaxBytes) {
        SplittableRandom random = new SplittableRandom();
        Hll dense = Hll.emptyDense();
        int[] expected = new int[Hll.REGISTERS];
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            for (int i = 0; i < Hll.REGISTERS; i++) {
                expected[i] = random.nextInt(64);
                HllDense.put(dense.bytes, i, expected[i]);
            }
            for (int i = 0; i < Hll.REGISTERS; i++) {
                int actual = HllDense.get(dense.bytes, i);
                if (actual != expected[i]) {
                    throw failed("Register " + i + " should be " + expected[i] + " but is " + actual);
                }
            }
        }
        dense = Hll.emptyDense();
        Hll sparse = Hll.empty();
        double relativeError = 1.04 / Math.sqrt(Hll.REGISTERS);
        long checkpoint = 1;
        long seed = random.nextLong();
        byte[] element = new byte[8];
        for (long j = 1; j <= 10_000_000; j++) {
            long value = j ^ seed;
            for (int b = 0; b < 8; b++) {
                element[b] = (byte) (value >>> (8 * b)); // the uint64's bytes on a little-endian machine
            }
            dense.add(element, sparseMaxBytes);
            sparse.add(element, sparseMaxBytes);
            if (j != checkpoint) {
                continue;
            }
            if (j < sparseMaxBytes / 2 && sparse.encoding() != Hll.SPARSE) {
                throw failed("sparse encoding not used");
            }
            long denseCount = HllEstimator.estimate(dense.histogram());
            if (denseCount != HllEstimator.estimate(sparse.histogram())) {
                throw failed("dense/sparse disagree");
            }
            long absoluteError = Math.abs(checkpoint - denseCount);
            long maxError = j == 10 ? 1 : (long) Math.ceil(relativeError * 6 * checkpoint);
            if (absoluteError > maxError) {
                throw failed("Too big error. card:" + checkpoint + " abserr:" + absoluteError);
            }
            checkpoint *= 10;
        }
        return "OK";
    }

    private static dev.redsim.simulator.error.RedisError failed(String what) {
        return new dev.redsim.simulator.error.RedisError("ERR TESTFAILED " + what);
    }
}
