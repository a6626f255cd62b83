package dev.redsim.simulator.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Redis's rate arithmetic: per-second increase per 100 ms sample, integer mean of the last 16 samples. */
class InstantaneousMetricTest {
    @Test
    void aSteadyRateIsReportedOnceSixteenSamplesAreIn() {
        InstantaneousMetric metric = new InstantaneousMetric(0);
        long counter = 0;
        for (int i = 1; i <= 16; i++) {
            counter += 1024; // 1 KiB per 100 ms
            metric.sample(i * 100L, counter);
        }
        assertThat(metric.perSecond()).isEqualTo(10_240);
    }

    @Test
    void oneBusySampleCountsForASixteenth() {
        InstantaneousMetric metric = new InstantaneousMetric(0);
        metric.sample(100, 1000); // 10,000 per second for one sample, nothing before
        assertThat(metric.perSecond()).isEqualTo(625);
    }

    @Test
    void oldSamplesAgeOutAndIdleTimeBringsTheRateToZero() {
        InstantaneousMetric metric = new InstantaneousMetric(0);
        metric.sample(100, 1000);
        for (int i = 2; i <= 17; i++) {
            metric.sample(i * 100L, 1000);
        }
        assertThat(metric.perSecond()).isZero();
    }

    @Test
    void noElapsedTimeGivesAZeroSampleAndResetStartsOver() {
        InstantaneousMetric metric = new InstantaneousMetric(500);
        metric.sample(500, 4096);
        assertThat(metric.perSecond()).isZero();
        metric.sample(600, 5096);
        assertThat(metric.perSecond()).isEqualTo(625);
        metric.reset(700);
        assertThat(metric.perSecond()).isZero();
        metric.sample(800, 160); // counting from zero again: 1,600 per second
        assertThat(metric.perSecond()).isEqualTo(100);
    }
}
