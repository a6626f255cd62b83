package dev.redsim.conformance.differential;

import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.scenario.Step.Compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The declared normalisations: how each command's replies are compared. Byte for byte unless Redis itself is
 * unordered (hashtable iteration), random, or reads a clock that runs on its own.
 */
public final class Comparisons {
    private static final Map<String, Compare> BY_COMMAND = Map.ofEntries(
            Map.entry("SMEMBERS", Compare.SORTED), Map.entry("SINTER", Compare.SORTED),
            Map.entry("SUNION", Compare.SORTED), Map.entry("SDIFF", Compare.SORTED),
            Map.entry("SPOP", Compare.SORTED), Map.entry("SSCAN", Compare.SORTED),
            Map.entry("KEYS", Compare.SORTED), Map.entry("SCAN", Compare.SORTED),
            // FUNCTION LIST walks Redis's hash tables of libraries and of each library's functions
            Map.entry("FUNCTION", Compare.SORTED),
            Map.entry("SRANDMEMBER", Compare.SHAPE), Map.entry("HRANDFIELD", Compare.SHAPE),
            Map.entry("ZRANDMEMBER", Compare.SHAPE), Map.entry("RANDOMKEY", Compare.SHAPE),
            Map.entry("TTL", Compare.APPROX), Map.entry("EXPIRETIME", Compare.APPROX),
            Map.entry("PTTL", Compare.APPROX), Map.entry("PEXPIRETIME", Compare.APPROX));
    private static final Map<String, Long> TOLERANCE = Map.of("TTL", 1L, "EXPIRETIME", 1L, "PTTL", 250L,
            "PEXPIRETIME", 250L);

    private Comparisons() {
    }

    public static Compare of(Call call) {
        return BY_COMMAND.getOrDefault(call.name(), Compare.EXACT);
    }

    /** True when the two replies count as the same for this call. */
    public static boolean same(Call call, RespValue expected, RespValue actual) {
        if (StreamTimes.COMMANDS.contains(call.name())) {
            expected = StreamTimes.blank(expected);
            actual = StreamTimes.blank(actual);
        }
        Compare compare = of(call);
        switch (compare) {
            case SORTED:
                return deepSorted(expected).equals(deepSorted(actual));
            case SHAPE:
                return expected.type() == actual.type() && sizeOf(expected) == sizeOf(actual);
            case APPROX:
                if (expected.type() == ':' && actual.type() == ':' && expected.asLong() >= 0 && actual.asLong() >= 0) {
                    return Math.abs(expected.asLong() - actual.asLong()) <= TOLERANCE.get(call.name());
                }
                return expected.equals(actual);
            default:
                return expected.equals(actual);
        }
    }

    private static int sizeOf(RespValue v) {
        return v.children() == null ? -1 : v.children().size();
    }

    static RespValue deepSorted(RespValue value) {
        if (value.children() == null) {
            return value;
        }
        List<RespValue> children = new ArrayList<>();
        for (RespValue child : value.children()) {
            children.add(deepSorted(child));
        }
        children.sort(Comparator.comparing(RespValue::toString));
        return RespValue.aggregate(value.type(), children);
    }
}
