package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.ListValue;
import dev.redsim.simulator.keyspace.Numbers;

import static dev.redsim.simulator.command.CommandSpec.command;

/** LPOP, RPOP, LMPOP, LMOVE and RPOPLPUSH; the data changes themselves are in {@link ListPops}. */
final class ListPopCommands implements CommandFamily {
    private static final RedisError NUMKEYS = new RedisError("ERR numkeys should be greater than 0");
    private static final RedisError COUNT = new RedisError("ERR count should be greater than 0");

    @Override
    public void register(CommandTable t) {
        t.add(command("lpop", -2).flags("write fast").keys(1, 1, 1).group("list")
                .summary("Remove and return elements from the head of a list").handler(ctx -> pop(ctx, true)).build());
        t.add(command("rpop", -2).flags("write fast").keys(1, 1, 1).group("list")
                .summary("Remove and return elements from the tail of a list").handler(ctx -> pop(ctx, false)).build());
        t.add(command("lmpop", -4).flags("write").movableKeys(ListPopCommands::lmpopKeys).group("list").since("7.0.0")
                .summary("Pop elements from the first non-empty list among several keys").handler(this::lmpop).build());
        t.add(command("lmove", 5).flags("write denyoom").keys(1, 2, 1).group("list").since("6.2.0")
                .summary("Move an element from one end of a list to an end of another").handler(this::lmove).build());
        t.add(command("rpoplpush", 3).flags("write denyoom").keys(1, 2, 1).group("list").since("1.2.0")
                .summary("Move the tail element of a list to the head of another")
                .handler(ctx -> move(ctx, false, true)).build());
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

    /** LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]: keys are the numkeys arguments after numkeys. */
    static int[] lmpopKeys(byte[][] args) {
        Long numkeys = args.length > 1 ? Numbers.parseLongStrict(args[1]) : null;
        if (numkeys == null || numkeys < 1 || numkeys > args.length - 2) {
            return new int[0];
        }
        int[] keys = new int[numkeys.intValue()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 2 + i;
        }
        return keys;
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
