package dev.redsim.simulator.commands.lists;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.ListValue;
import dev.redsim.simulator.keyspace.Numbers;

import java.util.Arrays;

/** LPOS: positions of an element in a list, with RANK, COUNT and MAXLEN as t_list.c parses them. */
final class ListPosition implements CommandFamily {
    private static final RedisError RANK_ZERO = new RedisError("ERR RANK can't be zero: use 1 to start from the "
            + "first match, 2 from the second ... or use negative to start from the end of the list");
    private static final RedisError COUNT_NEGATIVE = new RedisError("ERR COUNT can't be negative");
    private static final RedisError MAXLEN_NEGATIVE = new RedisError("ERR MAXLEN can't be negative");

    @Override
    public void register(CommandTable t) {
        t.handler("lpos", this::lpos);
    }

    private void lpos(CommandContext ctx) {
        long rank = 1;
        long count = -1; // -1: no COUNT option, reply a single index rather than an array
        long maxlen = 0;
        for (int j = 3; j < ctx.argc(); j++) {
            boolean more = j + 1 < ctx.argc();
            if (ctx.is(j, "rank") && more) {
                rank = ctx.longArg(++j);
                if (rank == 0) {
                    throw RANK_ZERO;
                }
            } else if (ctx.is(j, "count") && more) {
                count = nonNegative(ctx.arg(++j), COUNT_NEGATIVE);
            } else if (ctx.is(j, "maxlen") && more) {
                maxlen = nonNegative(ctx.arg(++j), MAXLEN_NEGATIVE);
            } else {
                throw RedisError.SYNTAX;
            }
        }
        ListValue list = ListCommands.readList(ctx, ctx.key(1));
        if (list == null) {
            if (count != -1) {
                ctx.reply().emptyArray();
            } else {
                ctx.reply().nullBulk();
            }
            return;
        }
        long[] found = search(list, ctx.arg(2), rank, count == -1 ? 1 : count, maxlen);
        if (count != -1) {
            ctx.reply().array(found.length);
            for (long index : found) {
                ctx.reply().integer(index);
            }
        } else if (found.length == 0) {
            ctx.reply().nullBulk();
        } else {
            ctx.reply().integer(found[0]);
        }
    }

    /** Like getPositiveLongFromObjectOrReply with a message: the same text for "not a number" and "negative". */
    private static long nonNegative(byte[] arg, RedisError error) {
        Long value = Numbers.parseLongStrict(arg);
        if (value == null || value < 0) {
            throw error;
        }
        return value;
    }

    /**
     * Indexes of matches, skipping the first rank-1 matches, up to {@code count} of them (0: all), looking at no
     * more than {@code maxlen} elements (0: all). A negative rank walks from the tail. The arithmetic wraps as
     * Redis's does, so RANK -9223372036854775808 behaves as it does there.
     */
    private static long[] search(ListValue list, byte[] element, long rank, long count, long maxlen) {
        boolean fromTail = rank < 0;
        if (fromTail) {
            rank = -rank;
        }
        int size = list.size();
        long[] found = new long[8];
        int n = 0;
        long matches = 0;
        for (int index = 0; index < size && (maxlen == 0 || index < maxlen); index++) {
            int at = fromTail ? size - index - 1 : index;
            if (!Arrays.equals(list.get(at), element)) {
                continue;
            }
            matches++;
            if (matches >= rank) {
                if (n == found.length) {
                    found = Arrays.copyOf(found, n * 2);
                }
                found[n++] = at;
                if (count != 0 && matches - rank + 1 >= count) {
                    break;
                }
            }
        }
        return Arrays.copyOf(found, n);
    }
}
