package dev.redsim.simulator.keyspace;

/**
 * A member interval of ZRANGEBYLEX and friends: "[a" inclusive, "(a" exclusive, "-" before everything,
 * "+" after everything. A null bound with its infinity flag stands for "-" or "+".
 */
public record LexRange(Bytes min, Bytes max, boolean minExclusive, boolean maxExclusive,
                       boolean minIsPlus, boolean maxIsMinus) implements ZSkipList.Range {

    /** Parses as zslParseLexRange; null when an item does not start with '[', '(' or is not a lone '-'/'+'. */
    public static LexRange parse(byte[] min, byte[] max) {
        Bound lo = bound(min);
        Bound hi = bound(max);
        if (lo == null || hi == null) {
            return null;
        }
        // A bound of "+" as min, or "-" as max, leaves nothing in range; "-" as min and "+" as max are open.
        return new LexRange(lo.value, hi.value, lo.exclusive, hi.exclusive, lo.plus, hi.minus);
    }

    private record Bound(Bytes value, boolean exclusive, boolean minus, boolean plus) {
    }

    private static Bound bound(byte[] item) {
        if (item.length == 0) {
            return null;
        }
        switch (item[0]) {
            case '+':
                return item.length == 1 ? new Bound(null, true, false, true) : null;
            case '-':
                return item.length == 1 ? new Bound(null, true, true, false) : null;
            case '(':
            case '[':
                return new Bound(Bytes.wrap(java.util.Arrays.copyOfRange(item, 1, item.length)), item[0] == '(',
                        false, false);
            default:
                return null;
        }
    }

    /** True when the member is at or after the min bound. */
    public boolean aboveMin(Bytes member) {
        if (min == null) {
            return !minIsPlus;
        }
        int c = member.compareTo(min);
        return minExclusive ? c > 0 : c >= 0;
    }

    /** True when the member is at or before the max bound. */
    public boolean belowMax(Bytes member) {
        if (max == null) {
            return !maxIsMinus;
        }
        int c = member.compareTo(max);
        return maxExclusive ? c < 0 : c <= 0;
    }

    @Override
    public boolean reachedMin(ZSkipList.Node node) {
        return aboveMin(node.member());
    }

    @Override
    public boolean withinMax(ZSkipList.Node node) {
        return belowMax(node.member());
    }

    @Override
    public boolean isEmpty() {
        if (minIsPlus || maxIsMinus) {
            return true;
        }
        if (min == null || max == null) {
            return false;
        }
        int c = min.compareTo(max);
        return c > 0 || (c == 0 && (minExclusive || maxExclusive));
    }
}
