package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The small key and value space histories draw from: few keys so commands collide on them (and in mixed
 * histories, types clash), and values that make errors happen (non-numbers, overflow, empty strings).
 */
public final class Vocabulary {
    public static final Gen<String> KEY = Gen.elements("k1", "k2", "k3", "{k}4");
    public static final Gen<String> VALUE = Gen.elements("1", "2", "-3", "10", "0", "a", "b", "abc", "", "3.5",
            "9223372036854775807", "-9223372036854775808", "hello world", "1e3", " 1");
    public static final Gen<String> SMALL_INT = Gen.elements("-2", "-1", "0", "1", "2", "3", "5", "100", "x", "1.5");
    public static final Gen<String> MEMBER = Gen.elements("a", "b", "c", "d", "1", "2", "10", "-1", "");
    public static final Gen<String> SCORE = Gen.elements("0", "1", "1.5", "-2", "10", "inf", "-inf", "+inf", "x", "1e2",
            "0.1", "3");
    public static final Gen<String> SCORE_BOUND = Gen.elements("-inf", "+inf", "0", "1", "(1", "1.5", "(10", "x", "-2");
    public static final Gen<String> LEX_BOUND = Gen.elements("-", "+", "[a", "(a", "[c", "(d", "a", "[", "(");

    private Vocabulary() {
    }

    /** A call with a fixed name and arguments drawn from generators. */
    @SafeVarargs
    public static Gen<String[]> call(String name, Gen<String>... args) {
        return random -> {
            String[] all = new String[args.length + 1];
            all[0] = name;
            for (int i = 0; i < args.length; i++) {
                all[i + 1] = args[i].next(random);
            }
            return all;
        };
    }

    /** name, fixed arguments, then 1..max repetitions of a group of generated arguments (e.g. field value pairs). */
    @SafeVarargs
    public static Gen<String[]> variadic(String name, List<Gen<String>> fixed, int max, Gen<String>... group) {
        return random -> {
            List<String> all = new ArrayList<>();
            all.add(name);
            fixed.forEach(g -> all.add(g.next(random)));
            int n = random.nextInt(1, max + 1);
            for (int i = 0; i < n; i++) {
                for (Gen<String> g : group) {
                    all.add(g.next(random));
                }
            }
            return all.toArray(new String[0]);
        };
    }

    /** Optional words, each added with probability one half, in the given order. */
    public static Gen<List<String>> options(String... words) {
        return random -> {
            List<String> chosen = new ArrayList<>();
            for (String w : words) {
                if (random.nextBoolean()) {
                    chosen.addAll(List.of(w.split(" ")));
                }
            }
            return chosen;
        };
    }

    /** A call whose arguments are a base call plus generated optional words. */
    public static Gen<String[]> withOptions(Gen<String[]> base, Gen<List<String>> options) {
        return random -> {
            List<String> all = new ArrayList<>(List.of(base.next(random)));
            all.addAll(options.next(random));
            return all.toArray(new String[0]);
        };
    }

    static String pick(SplittableRandom random, String... values) {
        return values[random.nextInt(values.length)];
    }
}
