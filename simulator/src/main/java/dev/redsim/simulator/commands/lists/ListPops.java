package dev.redsim.simulator.commands.lists;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.ListValue;

/**
 * Pop and move primitives of t_list.c shared by LPOP/RPOP, LMPOP, LMOVE/RPOPLPUSH, and meant for their blocking
 * forms too: each does the data change with all its side effects (events, deletion of an emptied list, WATCH
 * signal, dirty count), so a blocking layer that serves a waiting client only has to call it.
 */
public final class ListPops {
    private ListPops() {
    }

    /** Parses LEFT / RIGHT (any case): true for the head; "syntax error" otherwise. */
    public static boolean parseEnd(CommandContext ctx, int argIndex) {
        if (ctx.is(argIndex, "left")) {
            return true;
        }
        if (ctx.is(argIndex, "right")) {
            return false;
        }
        throw RedisError.SYNTAX;
    }

    /** Pops one element from a non-empty list and reports it as removed. */
    public static byte[] popOne(CommandContext ctx, Bytes key, ListValue list, boolean atHead) {
        byte[] value = list.pop(atHead);
        elementsRemoved(ctx, key, list, atHead, 1);
        return value;
    }

    /**
     * Pops up to {@code count} elements from a non-empty list and replies them as an array, in the order they
     * were popped (Redis's LPOP/RPOP with a count).
     */
    public static void popRangeReply(CommandContext ctx, Bytes key, ListValue list, boolean atHead, long count) {
        int n = (int) Math.min(count, list.size());
        ctx.reply().array(n);
        for (int i = 0; i < n; i++) {
            ctx.reply().bulk(list.pop(atHead));
        }
        elementsRemoved(ctx, key, list, atHead, n);
    }

    /** LMPOP's reply: the key name, then the popped elements. */
    public static void popRangeWithKeyReply(CommandContext ctx, Bytes key, ListValue list, boolean atHead, long count) {
        // LMPOP and BLMPOP go to the replicas as LPOP / RPOP of the one key, with the count actually popped
        ctx.propagateAs(atHead ? "LPOP" : "RPOP", key.bytes(), Math.min(count, list.size()));
        ctx.reply().array(2);
        ctx.reply().bulk(key.bytes());
        popRangeReply(ctx, key, list, atHead, count);
    }

    /**
     * LMOVE's transfer: pops from a non-empty source and pushes onto the destination (null when the key does
     * not exist; the caller has checked its type). Events come in Redis's order: the push, then the pop.
     */
    public static byte[] move(CommandContext ctx, Bytes sourceKey, ListValue source, Bytes destinationKey,
                              ListValue destination, boolean fromHead, boolean toHead) {
        byte[] value = source.pop(fromHead);
        if (destination == null) {
            destination = new ListValue();
            ctx.db().put(destinationKey, destination);
        }
        ctx.signalModified(destinationKey);
        destination.push(toHead, value);
        ctx.notifyEvent(KeyspaceEvents.LIST, toHead ? "lpush" : "rpush", destinationKey);
        elementsRemoved(ctx, sourceKey, source, fromHead, 1);
        return value;
    }

    /** Side effects of popping {@code count} elements (listElementsRemoved): event, deletion when empty. */
    static void elementsRemoved(CommandContext ctx, Bytes key, ListValue list, boolean atHead, long count) {
        ctx.notifyEvent(KeyspaceEvents.LIST, atHead ? "lpop" : "rpop", key);
        if (list.isEmpty()) {
            ctx.db().delete(key);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
        }
        ctx.signalModified(key);
        ctx.dirty(count);
    }
}
