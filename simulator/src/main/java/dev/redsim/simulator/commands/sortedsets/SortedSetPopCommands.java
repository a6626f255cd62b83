package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;
import dev.redsim.simulator.protocol.Reply;

import java.util.ArrayList;
import java.util.List;

/**
 * ZPOPMIN, ZPOPMAX and ZMPOP. The pop itself ({@link #pop}) and the reply shapes are separate so the blocking
 * variants (BZPOPMIN, BZPOPMAX, BZMPOP) can serve a woken client with the same code.
 */
public final class SortedSetPopCommands {
    static final RedisError NUMKEYS = new RedisError("ERR numkeys should be greater than 0");
    static final RedisError COUNT = new RedisError("ERR count should be greater than 0");

    private SortedSetPopCommands() {
    }

    /**
     * Removes up to {@code count} entries from the low end (or the high end when max) of the zset under key,
     * with the "zpopmin"/"zpopmax" event and the deletion of an emptied key; returns them in pop order.
     */
    public static List<ZSkipList.Node> pop(CommandContext ctx, Bytes key, SortedSetValue zset, boolean max,
                                           long count) {
        int n = (int) Math.min(count, zset.size());
        List<ZSkipList.Node> popped = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ZSkipList.Node node = max ? zset.last() : zset.first();
            zset.remove(node);
            popped.add(node);
        }
        if (n > 0) {
            SortedSets.changed(ctx, key, zset, max ? "zpopmax" : "zpopmin", n);
        }
        return popped;
    }

    /** ZPOPMIN/ZPOPMAX key [count]: a flat member/score pair without count, pairs (nested in RESP3) with one. */
    static void zpop(CommandContext ctx, boolean max) {
        if (ctx.argc() > 3) {
            throw RedisError.SYNTAX;
        }
        boolean countGiven = ctx.argc() == 3;
        long count = 1;
        if (countGiven) {
            Long parsed = Numbers.parseLongStrict(ctx.arg(2));
            if (parsed == null || parsed < 0) {
                throw RedisError.NOT_POSITIVE;
            }
            count = parsed;
        }
        Bytes key = ctx.key(1);
        SortedSetValue zset = SortedSets.write(ctx, key);
        if (zset == null || count == 0) {
            ctx.reply().emptyArray();
            return;
        }
        List<ZSkipList.Node> popped = pop(ctx, key, zset, max, count);
        if (countGiven) {
            SortedSets.replyEntries(ctx.reply(), popped, true);
        } else {
            replyFlatPair(ctx.reply(), popped.get(0));
        }
    }

    private static void replyFlatPair(Reply reply, ZSkipList.Node node) {
        reply.array(2);
        reply.bulk(node.member().bytes());
        reply.doubleValue(node.score());
    }

    /** ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]: pops from the first non-empty zset. */
    static void zmpop(CommandContext ctx) {
        Long numkeys = Numbers.parseLongStrict(ctx.arg(1));
        if (numkeys == null || numkeys < 1) {
            throw NUMKEYS;
        }
        if (numkeys > ctx.argc() - 3) {
            throw RedisError.SYNTAX;
        }
        int whereIndex = 2 + numkeys.intValue();
        boolean max;
        if (ctx.is(whereIndex, "min")) {
            max = false;
        } else if (ctx.is(whereIndex, "max")) {
            max = true;
        } else {
            throw RedisError.SYNTAX;
        }
        long count = -1;
        for (int j = whereIndex + 1; j < ctx.argc(); j++) {
            if (count == -1 && ctx.is(j, "count") && j + 1 < ctx.argc()) {
                Long c = Numbers.parseLongStrict(ctx.arg(++j));
                if (c == null || c < 1) {
                    throw COUNT;
                }
                count = c;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        count = count == -1 ? 1 : count;
        for (int i = 2; i < whereIndex; i++) {
            Bytes key = ctx.key(i);
            SortedSetValue zset = SortedSets.write(ctx, key);
            if (zset != null) {
                mpop(ctx, key, zset, max, count);
                return;
            }
        }
        ctx.reply().nullArray();
    }

    /** The ZMPOP/BZMPOP reply: the key, then member/score pairs nested in both protocols. */
    /**
     * ZMPOP's and BZMPOP's pop and reply; they go to the replicas as ZPOPMIN / ZPOPMAX of the one key with the
     * count actually popped.
     */
    static void mpop(CommandContext ctx, Bytes key, SortedSetValue zset, boolean max, long count) {
        ctx.propagateAs(max ? "ZPOPMAX" : "ZPOPMIN", key.bytes(), Math.min(count, zset.size()));
        replyMpop(ctx.reply(), key, pop(ctx, key, zset, max, count));
    }

    public static void replyMpop(Reply reply, Bytes key, List<ZSkipList.Node> popped) {
        reply.array(2);
        reply.bulk(key.bytes());
        reply.array(popped.size());
        for (ZSkipList.Node n : popped) {
            reply.array(2);
            reply.bulk(n.member().bytes());
            reply.doubleValue(n.score());
        }
    }

}
