package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.KeyRef;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.ListValue;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.SetValue;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;
import dev.redsim.simulator.util.PartialQuickSort;
import dev.redsim.simulator.util.Strtod;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * SORT and SORT_RO (sort.c): the elements of a list, set or sorted set, numerically or with ALPHA, weighted by
 * BY patterns or not sorted at all (a BY without '*'), a LIMIT window, GET patterns, and STORE into a list. The
 * steps and their order are Redis's, so errors, the sort's treatment of equal elements (glibc's stable merge
 * sort, or pqsort for a LIMIT with BY) and the side effects (a sorted set read turns skiplist, STORE is a setKey)
 * match. Costs O(N + M log M) as documented.
 */
public final class KeySortCommands implements CommandFamily {
    private static final RedisError NOT_DOUBLE = new RedisError("ERR One or more scores can't be converted into double");

    /** One element with what it sorts by: a score (numeric) or a comparison string (ALPHA with BY). */
    private static final class Element {
        final byte[] value;
        double score;
        byte[] weight;

        Element(byte[] value) {
            this.value = value;
        }
    }

    @Override
    public void register(CommandTable t) {
        t.handler("sort", ctx -> sort(ctx, false), KeySortCommands::sortKeys);
        t.handler("sort_ro", ctx -> sort(ctx, true));
    }

    /**
     * SORT's keys (Redis's sortGetKeys; the key spec cannot say where STORE is): the sorted key, and the key after
     * the last STORE, found by skipping LIMIT's two arguments and GET's and BY's one, as Redis skips them.
     */
    private static List<KeyRef> sortKeys(byte[][] args) {
        int store = -1;
        for (int i = 2; i < args.length; i++) {
            String word = CommandTable.lowerAscii(args[i]);
            if (word.equals("limit")) {
                i += 2;
            } else if (word.equals("store") && i + 1 < args.length) {
                store = i + 1; // the STORE key is looked at again as an option, as Redis does
            } else if (word.equals("get") || word.equals("by")) {
                i += 1;
            }
        }
        List<KeyRef> keys = new ArrayList<>();
        keys.add(new KeyRef(1, List.of("RO", "access")));
        if (store >= 0) {
            keys.add(new KeyRef(store, List.of("OW", "update")));
        }
        return keys;
    }

    private void sort(CommandContext ctx, boolean readOnly) {
        boolean desc = false;
        boolean alpha = false;
        boolean dontSort = false;
        long limitStart = 0;
        long limitCount = -1;
        byte[] by = null;
        Bytes storeKey = null;
        List<byte[]> gets = new ArrayList<>();
        for (int j = 2; j < ctx.argc(); j++) {
            int left = ctx.argc() - j - 1;
            if (ctx.is(j, "asc")) {
                desc = false;
            } else if (ctx.is(j, "desc")) {
                desc = true;
            } else if (ctx.is(j, "alpha")) {
                alpha = true;
            } else if (ctx.is(j, "limit") && left >= 2) {
                limitStart = ctx.longArg(j + 1);
                limitCount = ctx.longArg(j + 2);
                j += 2;
            } else if (!readOnly && ctx.is(j, "store") && left >= 1) {
                storeKey = ctx.key(j + 1);
                j++;
            } else if (ctx.is(j, "by") && left >= 1) {
                by = ctx.arg(j + 1);
                if (!SortPattern.hasStar(by)) {
                    dontSort = true; // a constant BY: no weights, no sorting (a later BY does not undo it)
                } else if (clusterEnabled(ctx)) { // the keys a pattern reads may live on any node
                    throw new RedisError("ERR BY option of SORT denied in Cluster mode.");
                } else if (!ctx.client().user().readsEveryKey()) {
                    throw new RedisError("ERR BY option of SORT denied due to insufficient ACL permissions.");
                }
                j++;
            } else if (ctx.is(j, "get") && left >= 1) {
                // even GET # : a user who cannot read every key gets no GET at all, as in Redis; nor does a
                // cluster node's client
                if (clusterEnabled(ctx)) {
                    throw new RedisError("ERR GET option of SORT denied in Cluster mode.");
                }
                if (!ctx.client().user().readsEveryKey()) {
                    throw new RedisError("ERR GET option of SORT denied due to insufficient ACL permissions.");
                }
                gets.add(ctx.arg(j + 1));
                j++;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        RedisValue value = ctx.db().getForRead(ctx.key(1));
        if (value != null && !(value instanceof ListValue || value instanceof SetValue
                || value instanceof SortedSetValue)) {
            throw RedisError.WRONGTYPE;
        }
        // A set read in hash-table order would replicate differently: stored or scripted, it is sorted ALPHA.
        boolean scripted = ctx.client().connection() == null; // the script client has no connection
        if (dontSort && value instanceof SetValue && (storeKey != null || scripted)) {
            dontSort = false;
            alpha = true;
            by = null;
        }
        if (value instanceof SortedSetValue zset) {
            zset.convertToSkiplist();
            ctx.db().remeasure(ctx.key(1)); // a read that grows the value (SORT_RO too): used_memory follows
        }
        int length = value == null ? 0 : size(value);
        long start = Math.min(Math.max(limitStart, 0), length);
        limitCount = Math.min(Math.max(limitCount, -1), length);
        long end = limitCount < 0 ? length - 1 : start + limitCount - 1;
        if (start >= length) {
            start = length - 1;
            end = length - 2;
        }
        if (end >= length) {
            end = length - 1;
        }
        Element[] vector = load(value, dontSort, desc, start, end);
        if (dontSort && (value instanceof ListValue || value instanceof SortedSetValue)) {
            end -= start; // the window was applied while loading
            start = 0;
        }
        boolean conversionError = false;
        if (!dontSort) {
            conversionError = weigh(ctx, vector, by, alpha);
            Comparator<Element> order = comparator(alpha, by != null, storeKey != null);
            if (desc) {
                order = order.reversed();
            }
            if (by != null && (start != 0 || end != vector.length - 1)) {
                PartialQuickSort.sort(vector, order, (int) start, (int) end);
            } else {
                Arrays.sort(vector, order); // stable: glibc's qsort is a merge sort
            }
        }
        long outputLength = (gets.isEmpty() ? 1 : gets.size()) * (end - start + 1);
        if (conversionError) {
            throw NOT_DOUBLE;
        }
        if (storeKey == null) {
            ctx.reply().array((int) outputLength);
            for (long j = start; j <= end; j++) {
                byte[] element = vector[(int) j].value;
                if (gets.isEmpty()) {
                    ctx.reply().bulk(element);
                }
                for (byte[] get : gets) {
                    byte[] found = SortPattern.lookup(ctx.db(), get, element);
                    if (found == null) {
                        ctx.reply().nullBulk();
                    } else {
                        ctx.reply().bulk(found);
                    }
                }
            }
            return;
        }
        store(ctx, storeKey, vector, start, end, gets, outputLength);
    }

    private static int size(RedisValue value) {
        if (value instanceof ListValue list) {
            return list.size();
        }
        if (value instanceof SetValue set) {
            return set.size();
        }
        return ((SortedSetValue) value).size();
    }

    /**
     * The elements to sort. Unsorted lists and sorted sets keep their own order (reversed for DESC) and are read
     * only within the LIMIT window; sets come in their iteration order, as Redis's come in its hash-table order.
     */
    private static Element[] load(RedisValue value, boolean dontSort, boolean desc, long start, long end) {
        if (value == null) {
            return new Element[0];
        }
        List<Element> out = new ArrayList<>();
        if (value instanceof ListValue list) {
            if (dontSort) {
                int n = list.size();
                for (long i = start; i <= end; i++) {
                    out.add(new Element(list.get((int) (desc ? n - 1 - i : i))));
                }
            } else {
                for (int i = 0; i < list.size(); i++) {
                    out.add(new Element(list.get(i)));
                }
            }
        } else if (value instanceof SetValue set) {
            set.forEach(member -> out.add(new Element(member)));
        } else {
            SortedSetValue zset = (SortedSetValue) value;
            if (dontSort) {
                if (end >= start) {
                    ZSkipList.Node n = desc ? zset.byRank(zset.size() - 1 - start) : zset.byRank(start);
                    for (long i = start; i <= end && n != null; i++) {
                        out.add(new Element(n.member().bytes()));
                        n = desc ? n.previous() : n.next();
                    }
                }
            } else {
                for (ZSkipList.Node n = zset.first(); n != null; n = n.next()) {
                    out.add(new Element(n.member().bytes()));
                }
            }
        }
        return out.toArray(new Element[0]);
    }

    /**
     * Loads what each element sorts by: its BY value (a missing one weighs 0, or compares first with ALPHA) or
     * itself. Returns whether a numeric weight failed strtod's test (the whole SORT then fails).
     */
    private static boolean weigh(CommandContext ctx, Element[] vector, byte[] by, boolean alpha) {
        boolean error = false;
        for (Element e : vector) {
            byte[] weight = by == null ? e.value : SortPattern.lookup(ctx.db(), by, e.value);
            if (weight == null) {
                continue;
            }
            if (alpha) {
                if (by != null) {
                    e.weight = weight;
                }
            } else {
                Strtod.Result parsed = Strtod.parse(weight);
                e.score = parsed.value();
                if (!parsed.atEnd() || parsed.erange() || Double.isNaN(parsed.value())) {
                    error = true;
                }
            }
        }
        return error;
    }

    /**
     * sortCompare: numbers, ties broken by the elements' bytes; ALPHA compares the BY values (a missing one
     * first) or the elements, byte for byte when storing and with strcoll otherwise, which in the C locale
     * Redis runs in compares up to the first NUL byte.
     */
    private static Comparator<Element> comparator(boolean alpha, boolean byPattern, boolean storing) {
        if (!alpha) {
            return (a, b) -> a.score > b.score ? 1 : a.score < b.score ? -1 : Arrays.compareUnsigned(a.value, b.value);
        }
        if (byPattern) {
            return (a, b) -> {
                if (a.weight == null || b.weight == null) {
                    return a.weight == b.weight ? 0 : a.weight == null ? -1 : 1;
                }
                return storing ? Arrays.compareUnsigned(a.weight, b.weight) : strcoll(a.weight, b.weight);
            };
        }
        return (a, b) -> storing ? Arrays.compareUnsigned(a.value, b.value) : strcoll(a.value, b.value);
    }

    /** strcoll in the C locale: strcmp, unsigned bytes up to the first NUL. */
    private static int strcoll(byte[] a, byte[] b) {
        for (int i = 0; ; i++) {
            int x = i < a.length ? a[i] & 0xff : 0;
            int y = i < b.length ? b[i] & 0xff : 0;
            if (x != y) {
                return x - y;
            }
            if (x == 0) {
                return 0;
            }
        }
    }

    /** STORE: the window (or its GET values, "" for missing ones) as a list, set as setKey sets it. */
    private static void store(CommandContext ctx, Bytes storeKey, Element[] vector, long start, long end,
                              List<byte[]> gets, long outputLength) {
        ListValue list = new ListValue();
        for (long j = start; j <= end; j++) {
            byte[] element = vector[(int) j].value;
            if (gets.isEmpty()) {
                list.addLast(element);
            }
            for (byte[] get : gets) {
                byte[] found = SortPattern.lookup(ctx.db(), get, element);
                list.addLast(found == null ? new byte[0] : found);
            }
        }
        if (outputLength > 0) {
            ctx.db().expireIfNeeded(storeKey); // setKey's lookupKeyWrite
            ctx.db().put(storeKey, list);
            ctx.signalModified(storeKey);
            ctx.notifyEvent(KeyspaceEvents.LIST, "sortstore", storeKey);
            ctx.dirty(outputLength);
        } else if (ctx.db().delete(storeKey)) {
            ctx.signalModified(storeKey);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", storeKey);
            ctx.dirty(1);
        }
        ctx.reply().integer(outputLength);
    }

    private static boolean clusterEnabled(CommandContext ctx) {
        return "yes".equals(ctx.engine().config().get("cluster-enabled"));
    }
}
