package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;

import java.util.ArrayList;
import java.util.List;

import static dev.redsim.conformance.differential.Vocabulary.KEY;

/**
 * BITFIELD calls: one to four operations with field types of every kind (including the rejected u64 and
 * malformed ones), plain and "#" offsets that cross byte boundaries, and values at and past the fields' limits.
 */
final class BitFieldCalls {
    private static final Gen<String> TYPE = Gen.elements("i1", "u1", "i4", "u5", "i8", "u8", "i13", "u16", "i32",
            "u33", "i63", "u63", "i64", "u64", "x8", "i0");
    private static final Gen<String> OFFSET = Gen.elements("0", "0", "1", "7", "8", "13", "63", "#0", "#1", "#2", "100",
            "-1", "x");
    private static final Gen<String> NUMBER = Gen.elements("0", "1", "-1", "5", "-7", "127", "128", "-128", "-129", "255",
            "256", "1000", "9223372036854775807", "-9223372036854775808", "x");
    private static final Gen<String> OVERFLOW = Gen.elements("WRAP", "SAT", "FAIL", "fail", "BAD");

    private BitFieldCalls() {
    }

    static Gen<String[]> bitfield(String command) {
        return random -> {
            List<String> all = new ArrayList<>(List.of(command, KEY.next(random)));
            int ops = random.nextInt(1, 5);
            for (int i = 0; i < ops; i++) {
                switch (random.nextInt(7)) {
                    case 0, 1 -> all.addAll(List.of("GET", TYPE.next(random), OFFSET.next(random)));
                    case 2, 3 -> all.addAll(List.of("SET", TYPE.next(random), OFFSET.next(random), NUMBER.next(random)));
                    case 4, 5 -> all.addAll(List.of("INCRBY", TYPE.next(random), OFFSET.next(random), NUMBER.next(random)));
                    default -> all.addAll(List.of("OVERFLOW", OVERFLOW.next(random)));
                }
            }
            return all.toArray(new String[0]);
        };
    }
}
