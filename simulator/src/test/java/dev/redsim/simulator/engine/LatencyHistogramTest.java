package dev.redsim.simulator.engine;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The histogram reports what Redis 7.0.15 reported for the same samples (read from a redis-server: two GETs of 4 and
 * 6 microseconds gave LATENCY HISTOGRAM {4: 1, 8: 2} and INFO's p50=4.015, p99=6.015; a call of 37 and one of 74
 * microseconds gave p0=36.864, p50=37.119, p99=74.239).
 */
class LatencyHistogramTest {

    @Test
    void cumulativeBucketsAndPercentilesAreRedisFigures() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(4_000);
        h.record(6_000);
        assertThat(h.total()).isEqualTo(2);
        assertThat(h.cumulativeBuckets()).containsExactly(new LatencyHistogram.Bucket(4, 1),
                new LatencyHistogram.Bucket(8, 2));
        assertThat(h.valueAtPercentile(50)).isEqualTo(4_015);
        assertThat(h.valueAtPercentile(99)).isEqualTo(6_015);
        assertThat(h.valueAtPercentile(100)).isEqualTo(6_015);
    }

    @Test
    void percentileZeroIsTheLowestValueOfItsBucket() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(37_000);
        h.record(74_000);
        assertThat(h.valueAtPercentile(0)).isEqualTo(36_864);
        assertThat(h.valueAtPercentile(50)).isEqualTo(37_119);
        assertThat(h.valueAtPercentile(99.9)).isEqualTo(74_239);
    }

    @Test
    void aCallOfNoMeasurableTimeCountsInTheFirstBucketAndLongOnesAreCappedAtOneSecond() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(0);
        h.record(5_000_000_000L);
        List<LatencyHistogram.Bucket> buckets = h.cumulativeBuckets();
        assertThat(buckets.get(0)).isEqualTo(new LatencyHistogram.Bucket(1, 1));
        assertThat(buckets.get(buckets.size() - 1).cumulativeCount()).isEqualTo(2);
        assertThat(buckets).hasSize(2);
        assertThat(h.valueAtPercentile(100)).isEqualTo(1_002_438_655L); // the highest value of the bucket of 1 s
    }
}
