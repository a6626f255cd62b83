package dev.redsim.conformance.property;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * Runs a property over generated sequences. Each case has its own seed, derived from the run's seed, so a
 * failure is reported with the one number that regenerates it ({@link #replay}). A failing case is shrunk.
 *
 * @param <T> the elements of the generated sequences (commands, operations)
 */
public final class PropertyCheck<T> {
    private final Gen<List<T>> generator;
    private final Predicate<List<T>> holds;
    private final int shrinkBudget;

    /** The outcome of a run. */
    public record Result<T>(int casesRun, long elementsRun, Failure<T> failure) {
        public boolean passed() {
            return failure == null;
        }
    }

    /** A failing case: its seed (replays it), the generated sequence, and the shrunk one. */
    public record Failure<T>(long caseSeed, List<T> original, List<T> shrunk, int shrinkAttempts) {
    }

    /** @param holds returns true when the property holds for a sequence */
    public PropertyCheck(Gen<List<T>> generator, Predicate<List<T>> holds, int shrinkBudget) {
        this.generator = generator;
        this.holds = holds;
        this.shrinkBudget = shrinkBudget;
    }

    /** Runs {@code cases} cases from a run seed; stops at the first failure, shrinks it and reports it. */
    public Result<T> run(long runSeed, int cases) {
        SplittableRandom seeds = new SplittableRandom(runSeed);
        long elements = 0;
        for (int i = 0; i < cases; i++) {
            long caseSeed = seeds.nextLong();
            List<T> input = replay(caseSeed);
            elements += input.size();
            if (!holds.test(input)) {
                Shrinker shrinker = new Shrinker(shrinkBudget);
                List<T> shrunk = shrinker.shrink(input, candidate -> !holds.test(candidate));
                return new Result<>(i + 1, elements, new Failure<>(caseSeed, input, shrunk, shrinker.attempts()));
            }
        }
        return new Result<>(cases, elements, null);
    }

    /** The sequence a case seed generates: the same every time. */
    public List<T> replay(long caseSeed) {
        return generator.next(new SplittableRandom(caseSeed));
    }

    /** The run seed: -Dredsim.seed=N when given (to rerun a reported run), a fresh one otherwise. */
    public static long runSeed() {
        String given = System.getProperty("redsim.seed");
        return given != null && !given.isBlank() ? Long.parseLong(given) : new SplittableRandom().nextLong();
    }
}
