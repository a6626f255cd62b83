package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.common.BlockingPop;
import dev.redsim.simulator.commands.common.BlockingTimeout;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;
import dev.redsim.simulator.protocol.Reply;

import java.util.List;

/**
 * BZPOPMIN, BZPOPMAX and BZMPOP: the pops of {@link SortedSetPopCommands} when a sorted set has members, otherwise the
 * client blocks until one is added (see {@link dev.redsim.simulator.engine.BlockedClients}). Inside MULTI/EXEC
 * ({@code denyBlocking}) an empty wait answers as a timeout at once.
 */
public final class SortedSetBlockingCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("bzpopmin", ctx -> bzpop(ctx, false));
        t.handler("bzpopmax", ctx -> bzpop(ctx, true));
        t.handler("bzmpop", this::bzmpop);
    }

    // ---- BZPOPMIN / BZPOPMAX key [key ...] timeout ----

    /** Sorted sets with something to pop; a key of another type answers WRONGTYPE when looked at directly. */
    private static final BlockingPop<SortedSetValue> SORTED_SETS =
            new BlockingPop<>(SortedSetValue.class, SortedSets::write, zset -> zset.size() > 0);

    private void bzpop(CommandContext ctx, boolean max) {
        long deadline = BlockingTimeout.deadline(ctx, ctx.argc() - 1);
        SORTED_SETS.serveOrBlock(ctx, BlockingPop.keys(ctx, 1, ctx.argc() - 2), deadline,
                (c, key, zset) -> popOneWithKey(c, key, zset, max), () -> ctx.reply().nullArray());
    }

    /** BZPOPMIN/BZPOPMAX's reply: key, member, score in one flat array. */
    private static void popOneWithKey(CommandContext ctx, Bytes key, SortedSetValue zset, boolean max) {
        ctx.propagateAs(max ? "ZPOPMAX" : "ZPOPMIN", key.bytes());
        List<ZSkipList.Node> popped = SortedSetPopCommands.pop(ctx, key, zset, max, 1);
        Reply reply = ctx.reply();
        reply.array(3);
        reply.bulk(key.bytes());
        reply.bulk(popped.get(0).member().bytes());
        reply.doubleValue(popped.get(0).score());
    }

    // ---- BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count] ----

    private void bzmpop(CommandContext ctx) {
        Long numkeys = Numbers.parseLongStrict(ctx.arg(2));
        if (numkeys == null || numkeys < 1) {
            throw SortedSetPopCommands.NUMKEYS;
        }
        if (numkeys > ctx.argc() - 4) {
            throw RedisError.SYNTAX; // no room left for MIN|MAX
        }
        int whereIndex = 3 + numkeys.intValue();
        boolean max;
        if (ctx.is(whereIndex, "min")) {
            max = false;
        } else if (ctx.is(whereIndex, "max")) {
            max = true;
        } else {
            throw RedisError.SYNTAX;
        }
        long count = parseCount(ctx, whereIndex + 1);
        long deadline = BlockingTimeout.deadline(ctx, 1);
        SORTED_SETS.serveOrBlock(ctx, BlockingPop.keys(ctx, 3, numkeys.intValue()), deadline,
                (c, key, zset) -> SortedSetPopCommands.mpop(c, key, zset, max, count),
                () -> ctx.reply().nullArray());
    }

    /** [COUNT count] after MIN|MAX: 1 when absent. */
    private static long parseCount(CommandContext ctx, int from) {
        long count = -1;
        for (int j = from; j < ctx.argc(); j++) {
            if (count == -1 && ctx.is(j, "count") && j + 1 < ctx.argc()) {
                Long c = Numbers.parseLongStrict(ctx.arg(++j));
                if (c == null || c < 1) {
                    throw SortedSetPopCommands.COUNT;
                }
                count = c;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        return count == -1 ? 1 : count;
    }
}
