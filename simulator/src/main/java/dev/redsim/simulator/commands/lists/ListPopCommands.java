package dev.redsim.simulator.commands.lists;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.ListValue;
import dev.redsim.simulator.keyspace.Numbers;

/** LPOP, RPOP, LMPOP, LMOVE and RPOPLPUSH; the data changes themselves are in {@link ListPops}. */
final class ListPopCommands implements CommandFamily {
    private static final RedisError NUMKEYS = new RedisError("ERR numkeys should be greater than 0");
    private static final RedisError COUNT = new RedisError("ERR count should be greater than 0");

    @Override
    public void register(CommandTable t) {
        t.handler("lpop", ctx -> pop(ctx, true));
        t.handler("rpop", ctx -> pop(ctx, false));
        t.handler("lmpop", this::lmpop);
        t.handler("lmove", this::lmove);
        t.handler("rpoplpush", ctx -> move(ctx, false, true));
    }

    private void pop(CommandContext ctx, boolean atHead) {
        if (ctx.argc() > 3) {
            throw RedisError.wrongArity(ctx.spec().name());
        }
        boolean hasCount = ctx.argc() == 3;
        long count = 0;
        if (hasCount) {
            Long parsed = Numbers.parseLongStrict(ctx.arg(2));
            if (parsed == null || parsed < 0) {
                throw RedisError.NOT_POSITIVE;
            }
            count = parsed;
        }
        Bytes key = ctx.key(1);
        ListValue list = ListCommands.writeList(ctx, key);
        if (list == null) {
            if (hasCount) {
                ctx.reply().nullArray();
            } else {
                ctx.reply().nullBulk();
            }
            return;
        }
        if (!hasCount) {
            ctx.reply().bulk(ListPops.popOne(ctx, key, list, atHead));
        } else if (count == 0) {
            ctx.reply().emptyArray();
        } else {
            ListPops.popRangeReply(ctx, key, list, atHead, count);
        }
    }

    private void lmpop(CommandContext ctx) {
        Long parsed = Numbers.parseLongStrict(ctx.arg(1));
        if (parsed == null || parsed < 1) {
            throw NUMKEYS;
        }
        long numkeys = parsed;
        if (numkeys >= ctx.argc() - 2) {
            throw RedisError.SYNTAX; // no room left for LEFT|RIGHT
        }
        int whereIndex = 2 + (int) numkeys;
        boolean atHead = ListPops.parseEnd(ctx, whereIndex);
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
        if (count == -1) {
            count = 1;
        }
        for (int i = 2; i < whereIndex; i++) {
            Bytes key = ctx.key(i);
            ListValue list = ListCommands.writeList(ctx, key);
            if (list != null && !list.isEmpty()) {
                ListPops.popRangeWithKeyReply(ctx, key, list, atHead, count);
                return;
            }
        }
        ctx.reply().nullArray();
    }

    private void lmove(CommandContext ctx) {
        boolean fromHead = ListPops.parseEnd(ctx, 3);
        boolean toHead = ListPops.parseEnd(ctx, 4);
        move(ctx, fromHead, toHead);
    }

    private void move(CommandContext ctx, boolean fromHead, boolean toHead) {
        Bytes sourceKey = ctx.key(1);
        ListValue source = ListCommands.writeList(ctx, sourceKey);
        if (source == null || source.isEmpty()) {
            ctx.reply().nullBulk();
            return;
        }
        Bytes destinationKey = ctx.key(2);
        ListValue destination = ListCommands.writeList(ctx, destinationKey);
        ctx.reply().bulk(ListPops.move(ctx, sourceKey, source, destinationKey, destination, fromHead, toHead));
    }
}
