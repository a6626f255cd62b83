package dev.redsim.simulator.commands.lists;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.common.BlockingPop;
import dev.redsim.simulator.commands.common.BlockingTimeout;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.ListValue;
import dev.redsim.simulator.keyspace.Numbers;

/**
 * BLPOP, BRPOP, BLMPOP, BLMOVE and BRPOPLPUSH: the non-blocking forms when a list has elements, otherwise the
 * client blocks until a push serves it (see {@link dev.redsim.simulator.engine.BlockedClients}). Inside
 * MULTI/EXEC ({@code denyBlocking}) an empty wait answers as a timeout at once.
 */
public final class ListBlockingCommands implements CommandFamily {
    private static final RedisError NUMKEYS = new RedisError("ERR numkeys should be greater than 0");
    private static final RedisError COUNT = new RedisError("ERR count should be greater than 0");

    @Override
    public void register(CommandTable t) {
        t.handler("blpop", ctx -> blockingPop(ctx, true));
        t.handler("brpop", ctx -> blockingPop(ctx, false));
        t.handler("blmpop", this::blmpop);
        t.handler("blmove", this::blmove);
        t.handler("brpoplpush", this::brpoplpush);
    }

    // ---- BLPOP / BRPOP ----

    /** Lists with something to pop; a key of another type answers WRONGTYPE when looked at directly. */
    private static final BlockingPop<ListValue> LISTS =
            new BlockingPop<>(ListValue.class, ListCommands::writeList, list -> !list.isEmpty());

    private void blockingPop(CommandContext ctx, boolean atHead) {
        long deadline = BlockingTimeout.deadline(ctx, ctx.argc() - 1);
        LISTS.serveOrBlock(ctx, BlockingPop.keys(ctx, 1, ctx.argc() - 2), deadline,
                (c, key, list) -> popWithKey(c, key, list, atHead), () -> ctx.reply().nullArray());
    }

    private static void popWithKey(CommandContext ctx, Bytes key, ListValue list, boolean atHead) {
        ctx.propagateAs(atHead ? "LPOP" : "RPOP", key.bytes()); // what it took, without blocking
        ctx.reply().array(2);
        ctx.reply().bulk(key.bytes());
        ctx.reply().bulk(ListPops.popOne(ctx, key, list, atHead));
    }

    // ---- BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count] ----

    private void blmpop(CommandContext ctx) {
        Long parsed = Numbers.parseLongStrict(ctx.arg(2));
        if (parsed == null || parsed < 1) {
            throw NUMKEYS;
        }
        if (parsed >= ctx.argc() - 3) {
            throw RedisError.SYNTAX; // no room left for LEFT|RIGHT
        }
        int whereIndex = 3 + parsed.intValue();
        boolean atHead = ListPops.parseEnd(ctx, whereIndex);
        long count = parseCount(ctx, whereIndex + 1);
        long deadline = BlockingTimeout.deadline(ctx, 1);
        LISTS.serveOrBlock(ctx, BlockingPop.keys(ctx, 3, whereIndex - 3), deadline,
                (c, key, list) -> ListPops.popRangeWithKeyReply(c, key, list, atHead, count),
                () -> ctx.reply().nullArray());
    }

    /** [COUNT count] after LEFT|RIGHT: 1 when absent. */
    private static long parseCount(CommandContext ctx, int from) {
        long count = -1;
        for (int j = from; j < ctx.argc(); j++) {
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
        return count == -1 ? 1 : count;
    }

    // ---- BLMOVE / BRPOPLPUSH ----

    private void blmove(CommandContext ctx) {
        boolean fromHead = ListPops.parseEnd(ctx, 3);
        boolean toHead = ListPops.parseEnd(ctx, 4);
        blockingMove(ctx, fromHead, toHead, BlockingTimeout.deadline(ctx, 5));
    }

    private void brpoplpush(CommandContext ctx) {
        blockingMove(ctx, false, true, BlockingTimeout.deadline(ctx, 3));
    }

    private void blockingMove(CommandContext ctx, boolean fromHead, boolean toHead, long deadline) {
        // a destination of another type answers WRONGTYPE when the move happens; unlike the other blocking
        // pops, a client that may not block gets a plain null
        LISTS.serveOrBlock(ctx, new Bytes[] {ctx.key(1)}, deadline,
                (c, key, list) -> move(c, key, list, fromHead, toHead), () -> ctx.reply().nullBulk());
    }

    private static void move(CommandContext ctx, Bytes sourceKey, ListValue source, boolean fromHead, boolean toHead) {
        Bytes destinationKey = ctx.key(2);
        ListValue destination = ListCommands.writeList(ctx, destinationKey);
        if (ctx.spec().fullName().equals("brpoplpush")) {
            ctx.propagateAs("RPOPLPUSH", ctx.arg(1), ctx.arg(2));
        } else if (ctx.client().blocked()) {
            // served after blocking: Redis writes the ends in its own words, lower case
            ctx.propagateAs("LMOVE", ctx.arg(1), ctx.arg(2), fromHead ? "left" : "right", toHead ? "left" : "right");
        } else {
            ctx.propagateAs("LMOVE", ctx.arg(1), ctx.arg(2), ctx.arg(3), ctx.arg(4));
        }
        ctx.reply().bulk(ListPops.move(ctx, sourceKey, source, destinationKey, destination, fromHead, toHead));
    }
}
