package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;

import java.util.ArrayList;
import java.util.List;

import static dev.redsim.conformance.differential.Vocabulary.KEY;
import static dev.redsim.conformance.differential.Vocabulary.MEMBER;
import static dev.redsim.conformance.differential.Vocabulary.call;
import static dev.redsim.conformance.differential.Vocabulary.options;
import static dev.redsim.conformance.differential.Vocabulary.variadic;
import static dev.redsim.conformance.differential.Vocabulary.withOptions;

/**
 * The calls of the GEO family: positions from a few clusters (so members tie, share cells and sit near cell
 * edges) plus random ones and out-of-range ones, searches of every form with every option, stores read back with
 * their scores (distances to 17 digits), and the sorted-set commands that share the keys.
 */
final class GeoCalls {
    private static final Gen<String> LONGITUDE = random -> switch (random.nextInt(8)) {
        case 0 -> pick(random, "13.361389", "15.087269", "-73.9857", "139.6917", "0", "180", "-180", "181", "x");
        case 1 -> Double.toString(Math.round((random.nextDouble() * 360 - 180) * 1e6) / 1e6);
        default -> String.format("%.4f", 10 + random.nextInt(3) * 0.05 + random.nextInt(4) * 0.0001);
    };
    private static final Gen<String> LATITUDE = random -> switch (random.nextInt(8)) {
        case 0 -> pick(random, "38.115556", "37.502669", "40.7484", "-85.05112878", "85.05112878", "0", "86", "x");
        case 1 -> Double.toString(Math.round((random.nextDouble() * 170 - 85) * 1e6) / 1e6);
        default -> String.format("%.4f", 20 + random.nextInt(3) * 0.05 + random.nextInt(4) * 0.0001);
    };
    private static final Gen<String> DISTANCE = Gen.elements("0", "1", "10", "50", "200", "1000", "5000", "20000", "-1",
            "x");
    private static final Gen<String> UNIT = Gen.elements("m", "km", "km", "km", "mi", "ft", "KM", "parsec");

    private GeoCalls() {
    }

    private static String pick(java.util.SplittableRandom random, String... values) {
        return values[random.nextInt(values.length)];
    }

    static List<Gen<String[]>> calls() {
        return List.of(
                variadic("GEOADD", List.of(KEY), 3, LONGITUDE, LATITUDE, MEMBER),
                variadic("GEOADD", List.of(KEY), 2, LONGITUDE, LATITUDE, MEMBER),
                withOptions(call("GEOADD", KEY), random -> {
                    List<String> all = new ArrayList<>(options("NX", "XX", "CH").next(random));
                    all.addAll(List.of(LONGITUDE.next(random), LATITUDE.next(random), MEMBER.next(random)));
                    return all;
                }),
                call("GEODIST", KEY, MEMBER, MEMBER), call("GEODIST", KEY, MEMBER, MEMBER, UNIT),
                variadic("GEOPOS", List.of(KEY), 3, MEMBER), variadic("GEOHASH", List.of(KEY), 3, MEMBER),
                search("GEOSEARCH", false), search("GEOSEARCH", false), search("GEOSEARCHSTORE", true),
                radius("GEORADIUS", false, true), radius("GEORADIUS_RO", false, false),
                radius("GEORADIUSBYMEMBER", true, true), radius("GEORADIUSBYMEMBER_RO", true, false),
                call("ZRANGE", KEY, Gen.constant("0"), Gen.constant("-1"), Gen.constant("WITHSCORES")),
                call("ZADD", KEY, Gen.elements("0", "1e15", "3479099956230698", "-5", "inf"), MEMBER),
                call("ZREM", KEY, MEMBER), call("OBJECT", Gen.constant("ENCODING"), KEY),
                call("TYPE", KEY), call("DEL", KEY));
    }

    /** GEOSEARCH / GEOSEARCHSTORE with one centre and one shape (mostly), then options in any order. */
    private static Gen<String[]> search(String name, boolean store) {
        return random -> {
            List<String> all = new ArrayList<>(List.of(name));
            if (store) {
                all.add(KEY.next(random));
            }
            all.add(KEY.next(random));
            List<List<String>> parts = new ArrayList<>();
            if (random.nextInt(10) > 0) {
                parts.add(random.nextBoolean() ? List.of("FROMMEMBER", MEMBER.next(random))
                        : List.of("FROMLONLAT", LONGITUDE.next(random), LATITUDE.next(random)));
            }
            if (random.nextInt(10) > 0) {
                parts.add(random.nextBoolean() ? List.of("BYRADIUS", DISTANCE.next(random), UNIT.next(random))
                        : List.of("BYBOX", DISTANCE.next(random), DISTANCE.next(random), UNIT.next(random)));
            }
            parts.addAll(commonOptions(random, store ? List.of("STOREDIST") : List.of("WITHDIST", "WITHCOORD", "WITHHASH")));
            java.util.Collections.shuffle(parts, new java.util.Random(random.nextLong()));
            parts.forEach(all::addAll);
            return all.toArray(new String[0]);
        };
    }

    /** GEORADIUS / GEORADIUSBYMEMBER (and _RO): centre and radius first, then options. */
    private static Gen<String[]> radius(String name, boolean byMember, boolean mayStore) {
        return random -> {
            List<String> all = new ArrayList<>(List.of(name, KEY.next(random)));
            if (byMember) {
                all.add(MEMBER.next(random));
            } else {
                all.add(LONGITUDE.next(random));
                all.add(LATITUDE.next(random));
            }
            all.add(DISTANCE.next(random));
            all.add(UNIT.next(random));
            List<List<String>> parts = new ArrayList<>(commonOptions(random, List.of("WITHDIST", "WITHCOORD", "WITHHASH")));
            if (mayStore && random.nextInt(3) == 0) {
                parts.add(List.of(random.nextBoolean() ? "STORE" : "STOREDIST", KEY.next(random)));
            }
            java.util.Collections.shuffle(parts, new java.util.Random(random.nextLong()));
            parts.forEach(all::addAll);
            return all.toArray(new String[0]);
        };
    }

    private static List<List<String>> commonOptions(java.util.SplittableRandom random, List<String> flags) {
        List<List<String>> parts = new ArrayList<>();
        for (String flag : flags) {
            if (random.nextInt(3) == 0) {
                parts.add(List.of(flag));
            }
        }
        int sort = random.nextInt(3);
        if (sort > 0) {
            parts.add(List.of(sort == 1 ? "ASC" : "DESC"));
        }
        if (random.nextBoolean()) {
            parts.add(List.of("COUNT", Gen.elements("1", "2", "3", "10", "0").next(random)));
            if (random.nextInt(3) == 0) {
                parts.add(List.of("ANY"));
            }
        }
        return parts;
    }
}
