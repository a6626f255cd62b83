package dev.redsim.conformance.property;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A generator of values from a seeded random source: the same seed always gives the same value, which is
 * what makes a failing case replayable from its seed.
 */
@FunctionalInterface
public interface Gen<T> {
    T next(SplittableRandom random);

    default <R> Gen<R> map(Function<? super T, ? extends R> f) {
        return random -> f.apply(next(random));
    }

    static <T> Gen<T> constant(T value) {
        return random -> value;
    }

    /** An int in [min, max], both included. */
    static Gen<Integer> between(int min, int max) {
        return random -> random.nextInt(min, max + 1);
    }

    @SafeVarargs
    static <T> Gen<T> elements(T... values) {
        return random -> values[random.nextInt(values.length)];
    }

    static <T> Gen<T> elements(List<T> values) {
        return random -> values.get(random.nextInt(values.size()));
    }

    @SafeVarargs
    static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
        return random -> gens[random.nextInt(gens.length)].next(random);
    }

    /** Picks a generator with probability proportional to its weight. */
    static <T> Gen<T> frequency(List<Weighted<T>> choices) {
        int total = choices.stream().mapToInt(Weighted::weight).sum();
        return random -> {
            int pick = random.nextInt(total);
            for (Weighted<T> w : choices) {
                pick -= w.weight();
                if (pick < 0) {
                    return w.gen().next(random);
                }
            }
            throw new IllegalStateException("unreachable");
        };
    }

    static <T> Gen<List<T>> listOf(Gen<T> element, int minSize, int maxSize) {
        return random -> {
            int size = random.nextInt(minSize, maxSize + 1);
            List<T> list = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                list.add(element.next(random));
            }
            return list;
        };
    }

    /** A generator with a weight, for {@link #frequency}. */
    record Weighted<T>(int weight, Gen<? extends T> gen) {
        @SuppressWarnings("unchecked")
        Gen<T> typed() {
            return (Gen<T>) gen;
        }
    }
}
