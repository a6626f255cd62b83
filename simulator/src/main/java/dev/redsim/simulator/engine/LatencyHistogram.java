package dev.redsim.simulator.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * One command's latency histogram, laid out as the HdrHistogram Redis 7.0 keeps per command (lowest value 1 ns,
 * highest 1 s, 2 significant figures): 128 sub-buckets per power of two, so a value is known to within 1 %. The
 * layout is what makes the figures Redis prints (INFO latencystats' percentiles, LATENCY HISTOGRAM's buckets)
 * come out the same for the same samples, so it is kept exactly: values are bucketed, reported as the highest value
 * of their bucket.
 */
public final class LatencyHistogram {
    private static final long LOWEST_NANOS = 1;
    private static final long HIGHEST_NANOS = 1_000_000_000L;
    private static final int SUB_BUCKET_HALF_COUNT_MAGNITUDE = 7;
    private static final int SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_COUNT_MAGNITUDE;
    private static final long SUB_BUCKET_MASK = (SUB_BUCKET_HALF_COUNT << 1) - 1;
    /** Buckets needed to reach 1 s from 256 ns by doubling (23), plus one half-bucket row: 3072 counters. */
    private static final int COUNTS_LENGTH = (23 + 1) * SUB_BUCKET_HALF_COUNT;
    /** LATENCY HISTOGRAM reports cumulative counts at 1024 ns, then every power of two above. */
    private static final long FIRST_REPORTED_LEVEL = 1024;

    private final long[] counts = new long[COUNTS_LENGTH];
    private long total;

    /** Records one call that took {@code nanos} (clamped to the 1 ns .. 1 s range, as Redis clamps it). */
    public void record(long nanos) {
        long value = Math.max(LOWEST_NANOS, Math.min(HIGHEST_NANOS, nanos));
        counts[indexOf(value)]++;
        total++;
    }

    public long total() {
        return total;
    }

    /** hdr_value_at_percentile: the highest value of the bucket where the percentile's count is reached. */
    public long valueAtPercentile(double percentile) {
        double requested = Math.min(percentile, 100.0);
        long countAtPercentile = Math.max(1, (long) (requested / 100 * total + 0.5));
        long seen = 0;
        for (int index = 0; index < COUNTS_LENGTH; index++) {
            seen += counts[index];
            if (seen >= countAtPercentile) {
                long value = valueAt(index);
                return percentile == 0.0 ? value : highestEquivalent(value);
            }
        }
        return 0;
    }

    /** One line of LATENCY HISTOGRAM: calls up to {@code micros} (a bucket's highest value, in microseconds). */
    public record Bucket(long micros, long cumulativeCount) {
    }

    /**
     * The cumulative distribution LATENCY HISTOGRAM prints (hdr's logarithmic iteration from 1024 ns, base 2): for
     * each power of two whose cumulative count grew, the count so far; it ends with the level that holds the
     * slowest call.
     */
    public List<Bucket> cumulativeBuckets() {
        List<Bucket> buckets = new ArrayList<>();
        long previous = 0;
        int index = 0;
        long cumulative = 0;
        for (long level = FIRST_REPORTED_LEVEL; previous < total; level <<= 1) {
            int last = indexOf(level);
            while (index <= last && index < COUNTS_LENGTH) {
                cumulative += counts[index++];
            }
            if (cumulative > previous) {
                buckets.add(new Bucket(highestEquivalent(level) / 1000, cumulative));
            }
            previous = cumulative;
        }
        return buckets;
    }

    private static int bucketIndex(long value) {
        int bits = 64 - Long.numberOfLeadingZeros(value | SUB_BUCKET_MASK);
        return bits - (SUB_BUCKET_HALF_COUNT_MAGNITUDE + 1);
    }

    private static int indexOf(long value) {
        int bucket = bucketIndex(value);
        int subBucket = (int) (value >>> bucket);
        return ((bucket + 1) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + (subBucket - SUB_BUCKET_HALF_COUNT);
    }

    private static long valueAt(int index) {
        int bucket = (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
        int subBucket = (index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT;
        if (bucket < 0) {
            subBucket -= SUB_BUCKET_HALF_COUNT;
            bucket = 0;
        }
        return (long) subBucket << bucket;
    }

    private static long highestEquivalent(long value) {
        int bucket = bucketIndex(value);
        long lowest = (value >>> bucket) << bucket;
        return lowest + (1L << bucket) - 1;
    }
}
