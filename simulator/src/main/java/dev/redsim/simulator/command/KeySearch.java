package dev.redsim.simulator.command;

import dev.redsim.simulator.keyspace.Numbers;

import java.util.ArrayList;
import java.util.List;

/**
 * The keys of a concrete call, found from its command's key specs the way Redis 7.0 reads them: each spec
 * finds where its keys begin (an index, or after a keyword) and how many there are (a range or a count
 * argument). When one spec points outside the arguments (a count larger than what follows, a count that is
 * not a number), the whole call has no valid keys, as in Redis.
 */
public final class KeySearch {
    private KeySearch() {
    }

    /** The keys of the call, in spec order, or null when the arguments do not fit the key specs. */
    public static List<KeyRef> find(List<KeySpec> specs, byte[][] args) {
        return find(specs, args, false);
    }

    /**
     * As {@link #find}, or with {@code partial} the keys of the specs that fit, skipping those that do not (Redis's
     * GET_KEYSPEC_RETURN_PARTIAL, which a cluster node's slot check uses: PFMERGE dest with no sources still names
     * dest there, while COMMAND GETKEYS finds it invalid).
     */
    public static List<KeyRef> find(List<KeySpec> specs, byte[][] args, boolean partial) {
        List<KeyRef> keys = new ArrayList<>();
        for (KeySpec spec : specs) {
            int start = start(spec.beginSearch(), args);
            if (start < 0) {
                continue; // no keyword, or a start Redis cannot tell: this spec names no keys in this call
            }
            int first;
            int last;
            int step;
            if (spec.findKeys() instanceof KeySpec.Range range) {
                first = start;
                if (range.lastKey() >= 0) {
                    last = first + range.lastKey();
                } else if (range.limit() == 0) {
                    last = args.length + range.lastKey();
                } else {
                    last = first + (args.length - first) / range.limit() + range.lastKey();
                }
                step = range.keyStep();
            } else if (spec.findKeys() instanceof KeySpec.Keynum keynum) {
                int countAt = start + keynum.keynumIndex();
                Long count = countAt < args.length ? Numbers.parseLongStrict(args[countAt]) : null;
                if (count == null || count < 0 || count > args.length) {
                    if (partial) {
                        continue;
                    }
                    return null;
                }
                first = start + keynum.firstKey();
                last = first + (int) ((count - 1) * keynum.keyStep());
                step = keynum.keyStep();
            } else {
                continue;
            }
            if (first >= args.length || last >= args.length || last < first) {
                if (partial) {
                    continue;
                }
                return null;
            }
            for (int i = first; i <= last; i += step) {
                keys.add(new KeyRef(i, spec.flags()));
            }
        }
        return keys;
    }

    /** The index where a spec's keys begin in this call, or -1 when they are not there. */
    private static int start(KeySpec.BeginSearch begin, byte[][] args) {
        if (begin instanceof KeySpec.AtIndex at) {
            return at.index();
        }
        if (begin instanceof KeySpec.AfterKeyword after) {
            String keyword = after.keyword().toLowerCase();
            if (after.startFrom() >= 0) {
                for (int i = after.startFrom(); i < args.length; i++) {
                    if (CommandTable.lowerAscii(args[i]).equals(keyword)) {
                        return i + 1;
                    }
                }
            } else {
                for (int i = args.length + after.startFrom(); i > 0; i--) {
                    if (CommandTable.lowerAscii(args[i]).equals(keyword)) {
                        return i + 1;
                    }
                }
            }
        }
        return -1;
    }
}
