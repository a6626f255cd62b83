package dev.redsim.conformance.property;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class ShrinkerTest {
    @Test
    void findsThePlantedMinimalFailure() {
        // fails whenever 17 comes somewhere before 42: the minimal failing sequence is [17, 42]
        List<Integer> failing = IntStream.range(0, 200).boxed().toList();
        List<Integer> shrunk = new Shrinker(10_000).shrink(failing, s -> s.contains(17) && s.contains(42)
                && s.indexOf(17) < s.indexOf(42));
        assertThat(shrunk).containsExactly(17, 42);
    }

    @Test
    void resultIsOneMinimal() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 50; trial++) {
            List<Integer> input = Gen.listOf(Gen.between(0, 9), 10, 60).next(random);
            // fails when the sum of the sequence is at least 30 (many minimal answers)
            java.util.function.Predicate<List<Integer>> fails = s -> s.stream().mapToInt(i -> i).sum() >= 30;
            if (!fails.test(input)) {
                continue;
            }
            List<Integer> shrunk = new Shrinker(10_000).shrink(input, fails);
            assertThat(fails.test(shrunk)).isTrue();
            for (int i = 0; i < shrunk.size(); i++) {
                List<Integer> without = new java.util.ArrayList<>(shrunk);
                without.remove(i);
                assertThat(fails.test(without)).as("removing element %d of %s", i, shrunk).isFalse();
            }
        }
    }

    @Test
    void staysWithinItsBudget() {
        List<Integer> failing = IntStream.range(0, 1000).boxed().toList();
        Shrinker shrinker = new Shrinker(50);
        shrinker.shrink(failing, s -> s.size() > 3);
        assertThat(shrinker.attempts()).isLessThanOrEqualTo(50);
    }
}
