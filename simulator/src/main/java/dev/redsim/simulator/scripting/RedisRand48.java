package dev.redsim.simulator.scripting;

/**
 * The generator behind math.random in Redis's Lua (its rand.c): the 48-bit linear congruential generator of
 * drand48, so scripts that seed it see the numbers Redis gives them.
 */
final class RedisRand48 {
    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long ADDEND = 0xBL;
    private static final long MASK = (1L << 48) - 1;
    static final int MAX = Integer.MAX_VALUE;

    private long state;

    /** drand48's unseeded state (0x1234ABCD330E), which Redis never reseeds: a fresh server's first numbers. */
    RedisRand48() {
        state = 0x1234ABCD330EL;
    }

    /** The generator's state, to run a script again from its start with the numbers it drew (CallRecording). */
    long state() {
        return state;
    }

    void restore(long saved) {
        state = saved;
    }

    void seed(int seed) {
        state = (((long) seed & 0xffffffffL) << 16 | 0x330EL) & MASK;
    }

    /** A value in [0, 2^31). */
    int next() {
        state = (MULTIPLIER * state + ADDEND) & MASK;
        return (int) (state >>> 17);
    }

    /** A double in [0, 1), as Redis's math.random computes it. */
    double nextDouble() {
        return (double) (next() % MAX) / (double) MAX;
    }
}
