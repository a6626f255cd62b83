package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;

import java.util.List;

import static dev.redsim.conformance.differential.Vocabulary.KEY;
import static dev.redsim.conformance.differential.Vocabulary.VALUE;
import static dev.redsim.conformance.differential.Vocabulary.call;
import static dev.redsim.conformance.differential.Vocabulary.variadic;

/**
 * The calls of the HLL family: PFADD of elements drawn from a few thousand (so sparse opcodes split, merge and
 * grow), bulk adds by script up to the dense switch, unions, the debug views, GET of the raw bytes (compared
 * byte for byte, cached cardinality included), and strings that are not HLLs or carry corrupt opcodes.
 */
final class HllCalls {
    private static final Gen<String> ELEMENT = random -> switch (random.nextInt(6)) {
        case 0 -> Vocabulary.MEMBER.next(random);
        case 1 -> "e" + random.nextInt(20);
        default -> Integer.toString(random.nextInt(4000));
    };
    /**
     * Lua expressions for strings that are HLLs or nearly: headers with a stale or valid cache, opcodes that
     * cover 16384 registers or not, a dense header on a sparse body, no opcodes, a bare magic. (Bytes above 127
     * are built in Lua: the runner sends arguments as UTF-8.) None ends in a truncated XZERO opcode, whose
     * second byte Redis reads past the end of the string (see docs/commands.md, known differences).
     */
    private static final Gen<String> HLL_LIKE = Gen.elements(
            "'HYLL' .. string.char(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 127, 255)",
            "'HYLL' .. string.char(1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 127, 255)",
            "'HYLL' .. string.char(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 126, 127)",
            "'HYLL' .. string.char(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 127, 254, 131)",
            "'HYLL' .. string.char(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 63, 127, 190, 128, 156)",
            "'HYLL' .. string.char(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128)",
            "'HYLL' .. string.char(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 127, 255)",
            "'HYLL'");

    private HllCalls() {
    }

    static List<Gen<String[]>> calls() {
        Gen<String> count = Gen.elements("50", "300", "1200", "3000");
        return List.of(
                variadic("PFADD", List.of(KEY), 4, ELEMENT), variadic("PFADD", List.of(KEY), 4, ELEMENT),
                variadic("PFADD", List.of(KEY), 1, ELEMENT), call("PFADD", KEY),
                // a bulk add: a script reaches sizes where the sparse form gives way to the dense one
                call("EVAL", Gen.constant("for i = 1, tonumber(ARGV[2]) do redis.call('pfadd', KEYS[1], ARGV[1] .. i) end"
                        + " return redis.call('pfcount', KEYS[1])"), Gen.constant("1"), KEY, Gen.elements("a", "b", "c"), count),
                call("PFCOUNT", KEY), call("PFCOUNT", KEY), variadic("PFCOUNT", List.of(KEY), 3, KEY),
                variadic("PFMERGE", List.of(KEY), 2, KEY), call("PFMERGE", KEY),
                call("GET", KEY), call("GET", KEY), call("STRLEN", KEY),
                call("PFDEBUG", Gen.elements("ENCODING", "DECODE", "TODENSE", "nosuch"), KEY),
                call("SET", KEY, VALUE),
                call("EVAL", HLL_LIKE.map(bytes -> "return redis.call('SET', KEYS[1], " + bytes + ")"), Gen.constant("1"), KEY),
                // changes that keep every opcode whole: a ZERO appended, the encoding byte, the cache's top byte
                call("APPEND", KEY, Gen.elements("\u0000", "\u0001")),
                call("SETRANGE", KEY, Gen.elements("4", "15"), Gen.elements("\u0000", "\u0001", "\u0002", "\u007f")),
                call("OBJECT", Gen.constant("ENCODING"), KEY), variadic("RPUSH", List.of(KEY), 1, ELEMENT),
                call("TYPE", KEY), call("DEL", KEY));
    }
}
