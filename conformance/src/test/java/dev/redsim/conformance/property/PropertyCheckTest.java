package dev.redsim.conformance.property;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PropertyCheckTest {
    private final Gen<List<Integer>> lists = Gen.listOf(Gen.between(0, 1000), 0, 40);

    @Test
    void aCaseSeedReplaysTheSameSequence() {
        PropertyCheck<Integer> check = new PropertyCheck<>(lists, s -> true, 100);
        assertThat(check.replay(123456789L)).isEqualTo(check.replay(123456789L));
        assertThat(check.replay(1L)).isNotEqualTo(check.replay(2L));
    }

    @Test
    void aFailureIsReportedWithItsSeedAndShrunk() {
        PropertyCheck<Integer> check = new PropertyCheck<>(lists, s -> !s.contains(999) && !s.contains(998), 1000);
        PropertyCheck.Result<Integer> result = check.run(42L, 10_000);
        assertThat(result.passed()).isFalse();
        PropertyCheck.Failure<Integer> failure = result.failure();
        assertThat(check.replay(failure.caseSeed())).isEqualTo(failure.original());
        assertThat(failure.shrunk()).hasSize(1).containsAnyOf(998, 999);
    }

    @Test
    void theSameRunSeedRunsTheSameCases() {
        PropertyCheck<Integer> check = new PropertyCheck<>(lists, s -> s.size() < 39, 100);
        PropertyCheck.Result<Integer> first = check.run(99L, 500);
        PropertyCheck.Result<Integer> second = check.run(99L, 500);
        assertThat(first.casesRun()).isEqualTo(second.casesRun());
        assertThat(first.failure().caseSeed()).isEqualTo(second.failure().caseSeed());
    }
}
