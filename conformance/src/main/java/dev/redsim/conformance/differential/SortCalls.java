package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;

import java.util.ArrayList;
import java.util.List;

import static dev.redsim.conformance.differential.Vocabulary.KEY;
import static dev.redsim.conformance.differential.Vocabulary.VALUE;
import static dev.redsim.conformance.differential.Vocabulary.call;
import static dev.redsim.conformance.differential.Vocabulary.variadic;

/**
 * The calls of the SORT family. Elements "1" to "4" make the patterns "k*" and "{k}*" name the shared keys, so
 * BY and GET read strings, hashes and values of other types that the same histories write. Sets get integers
 * only: Redis iterates a set of strings in the order of its randomly seeded hash table, which neither server can
 * reproduce, while an intset iterates in order on both. No value makes strtod report ERANGE, which Redis's SORT
 * would carry to later calls, and ALPHA never meets a weighing BY (see below and docs/commands.md).
 */
final class SortCalls {
    private static final Gen<String> ELEMENT = Gen.elements("1", "2", "3", "4", "10", "-1", "1.5", "a", "b", "", "007",
            "0x10", " 2");
    private static final Gen<String> INT_MEMBER = Gen.elements("1", "2", "3", "4", "10", "-1", "100");
    private static final Gen<String> BY = Gen.elements("k*", "{k}*", "k*->f", "nosort", "k*->", "*", "#");
    private static final Gen<String> GET = Gen.elements("#", "k*", "{k}*", "k*->f", "k*->g", "constant");

    private SortCalls() {
    }

    static List<Gen<String[]>> calls() {
        return List.of(
                variadic("RPUSH", List.of(KEY), 4, ELEMENT), variadic("SADD", List.of(KEY), 3, INT_MEMBER),
                variadic("ZADD", List.of(KEY), 3, Gen.elements("1", "2", "2", "-1", "0.5"), ELEMENT),
                call("SET", KEY, VALUE), variadic("HSET", List.of(KEY), 2, Gen.elements("f", "g"), VALUE),
                sort("SORT"), sort("SORT"), sort("SORT"), sort("SORT_RO"),
                call("LRANGE", KEY, Gen.constant("0"), Gen.constant("-1")), call("OBJECT", Gen.constant("ENCODING"), KEY),
                call("TYPE", KEY), call("DEL", KEY));
    }

    private static Gen<String[]> sort(String name) {
        return random -> {
            List<String> all = new ArrayList<>(List.of(name, KEY.next(random)));
            List<List<String>> parts = new ArrayList<>();
            String by = random.nextBoolean() ? BY.next(random) : null;
            if (by != null) {
                parts.add(List.of("BY", by));
            }
            int gets = random.nextInt(4) == 0 ? 0 : random.nextInt(3);
            for (int i = 0; i < gets; i++) {
                parts.add(List.of("GET", GET.next(random)));
            }
            if (random.nextBoolean()) {
                parts.add(List.of("LIMIT", Gen.elements("0", "1", "2", "-1", "5").next(random),
                        Gen.elements("0", "1", "2", "3", "-1", "10").next(random)));
            }
            // ALPHA with a weighing BY ties elements whose weights are equal or missing, and Redis loads a sorted
            // set's members in its hash table's (randomly seeded) order: the order of ties would be chance.
            if (random.nextBoolean() && (by == null || !by.contains("*"))) {
                parts.add(List.of("ALPHA"));
            }
            if (random.nextInt(3) > 0) {
                parts.add(List.of(random.nextBoolean() ? "ASC" : "DESC"));
            }
            if (name.equals("SORT") && random.nextInt(4) == 0) {
                parts.add(List.of("STORE", KEY.next(random)));
            }
            java.util.Collections.shuffle(parts, new java.util.Random(random.nextLong()));
            parts.forEach(all::addAll);
            return all.toArray(new String[0]);
        };
    }
}
