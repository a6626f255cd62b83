package dev.redsim.simulator.engine;

/**
 * A rate over the last 1.6 seconds, as Redis computes instantaneous_ops_per_sec and instantaneous_*_kbps
 * (server.c, trackInstantaneousMetric / getInstantaneousMetric): serverCron samples a growing counter every 100 ms,
 * each sample is the increase per second since the one before, and the rate is the integer mean of the last 16.
 */
public final class InstantaneousMetric {
    static final int SAMPLES = 16;

    private final long[] samples = new long[SAMPLES];
    private int index;
    private long lastSampleMillis;
    private long lastReading;

    public InstantaneousMetric(long nowMillis) {
        this.lastSampleMillis = nowMillis;
    }

    /** Takes one sample of the counter's current value. */
    public void sample(long nowMillis, long reading) {
        long elapsed = nowMillis - lastSampleMillis;
        long increase = reading - lastReading;
        samples[index] = elapsed > 0 ? increase * 1000 / elapsed : 0;
        index = (index + 1) % SAMPLES;
        lastSampleMillis = nowMillis;
        lastReading = reading;
    }

    /** Per second, the mean of the last 16 samples (integer division, as Redis). */
    public long perSecond() {
        long sum = 0;
        for (long sample : samples) {
            sum += sample;
        }
        return sum / SAMPLES;
    }

    /** CONFIG RESETSTAT: no samples, counting again from zero. */
    public void reset(long nowMillis) {
        java.util.Arrays.fill(samples, 0);
        index = 0;
        lastSampleMillis = nowMillis;
        lastReading = 0;
    }
}
