package dev.redsim.simulator.command;

import java.util.List;

/**
 * The keys of a command whose one key spec is an index and a range (GET, INCR, HSET, MSET, DEL: most commands),
 * found without building a list: the command path measures every written key after each write call, and a list of
 * key records per call was garbage on its hottest path. {@link KeySearch} stays the one reading of the other specs;
 * this gives the same indexes for the specs it accepts.
 */
final class KeyRange {
    private final int begin;
    private final int lastKey;
    private final int keyStep;
    private final int limit;

    private KeyRange(int begin, KeySpec.Range range) {
        this.begin = begin;
        this.lastKey = range.lastKey();
        this.keyStep = range.keyStep();
        this.limit = range.limit();
    }

    /** The range of these specs, or null when they are anything else (several specs, keywords, key counts). */
    static KeyRange of(List<KeySpec> specs) {
        if (specs.size() != 1) {
            return null;
        }
        KeySpec spec = specs.get(0);
        if (spec.beginSearch() instanceof KeySpec.AtIndex at && spec.findKeys() instanceof KeySpec.Range range
                && range.keyStep() > 0) {
            return new KeyRange(at.index(), range);
        }
        return null;
    }

    /** The index of the call's first key, or -1 when the arguments do not fit the spec (as KeySearch's null). */
    int first(byte[][] args) {
        return last(args) < 0 ? -1 : begin;
    }

    /** The index of the call's last key (the range holds every step-th index from the first), or -1. */
    int last(byte[][] args) {
        int last;
        if (lastKey >= 0) {
            last = begin + lastKey;
        } else if (limit == 0) {
            last = args.length + lastKey;
        } else {
            last = begin + (args.length - begin) / limit + lastKey;
        }
        return begin >= args.length || last >= args.length || last < begin ? -1 : last;
    }

    int step() {
        return keyStep;
    }
}
