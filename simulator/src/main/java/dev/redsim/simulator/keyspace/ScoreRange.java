package dev.redsim.simulator.keyspace;

/** A score interval of ZRANGEBYSCORE and friends: "1", "(1" (exclusive), "-inf", "+inf". */
public record ScoreRange(double min, double max, boolean minExclusive, boolean maxExclusive)
        implements ZSkipList.Range {

    /** Parses min and max as Redis's zslParseRange does; null when either is not a float. */
    public static ScoreRange parse(byte[] min, byte[] max) {
        double[] lo = parseBound(min);
        double[] hi = parseBound(max);
        if (lo == null || hi == null) {
            return null;
        }
        return new ScoreRange(lo[0], hi[0], lo[1] != 0, hi[1] != 0);
    }

    /** {value, exclusive?1:0}, or null. Redis uses strtod directly: leading blanks pass, "" reads as 0. */
    private static double[] parseBound(byte[] text) {
        int start = 0;
        boolean exclusive = text.length > 0 && text[0] == '(';
        if (exclusive) {
            start = 1;
        }
        while (start < text.length && isSpace(text[start])) {
            start++;
        }
        if (start == text.length) {
            return new double[] {0, exclusive ? 1 : 0};
        }
        byte[] number = java.util.Arrays.copyOfRange(text, start, text.length);
        Double value = Numbers.parseDoubleUnchecked(number);
        if (value == null) {
            return null;
        }
        return new double[] {value, exclusive ? 1 : 0};
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    public boolean aboveMin(double value) {
        return minExclusive ? value > min : value >= min;
    }

    public boolean belowMax(double value) {
        return maxExclusive ? value < max : value <= max;
    }

    @Override
    public boolean reachedMin(ZSkipList.Node node) {
        return aboveMin(node.score());
    }

    @Override
    public boolean withinMax(ZSkipList.Node node) {
        return belowMax(node.score());
    }

    @Override
    public boolean isEmpty() {
        return min > max || (min == max && (minExclusive || maxExclusive));
    }
}
