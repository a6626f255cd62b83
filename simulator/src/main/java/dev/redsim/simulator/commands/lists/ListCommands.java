package dev.redsim.simulator.commands.lists;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.ListValue;

import java.util.Arrays;

/** The non-blocking list commands of t_list.c (pops and moves in {@link ListPopCommands}, LPOS in {@link ListPosition}). */
public final class ListCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("lpush", ctx -> push(ctx, true, false));
        t.handler("rpush", ctx -> push(ctx, false, false));
        t.handler("lpushx", ctx -> push(ctx, true, true));
        t.handler("rpushx", ctx -> push(ctx, false, true));
        t.handler("llen", this::llen);
        t.handler("lrange", this::lrange);
        t.handler("lindex", this::lindex);
        t.handler("lset", this::lset);
        t.handler("linsert", this::linsert);
        t.handler("lrem", this::lrem);
        t.handler("ltrim", this::ltrim);
        new ListPosition().register(t);
        new ListPopCommands().register(t);
    }

    /** The list under a key for reading (counts hits/misses), or null; WRONGTYPE for other types. */
    static ListValue readList(CommandContext ctx, Bytes key) {
        return ctx.db().getForRead(key, ListValue.class);
    }

    /** The list under a key for writing, or null; WRONGTYPE for other types. */
    static ListValue writeList(CommandContext ctx, Bytes key) {
        return ctx.db().get(key, ListValue.class);
    }

    private void push(CommandContext ctx, boolean atHead, boolean onlyIfExists) {
        Bytes key = ctx.key(1);
        ListValue list = writeList(ctx, key);
        if (list == null) {
            if (onlyIfExists) {
                ctx.reply().integer(0);
                return;
            }
            list = new ListValue();
            ctx.db().put(key, list);
        }
        for (int i = 2; i < ctx.argc(); i++) {
            list.push(atHead, ctx.arg(i));
        }
        ctx.dirty(ctx.argc() - 2);
        ctx.reply().integer(list.size());
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.LIST, atHead ? "lpush" : "rpush", key);
    }

    private void llen(CommandContext ctx) {
        ListValue list = readList(ctx, ctx.key(1));
        ctx.reply().integer(list == null ? 0 : list.size());
    }

    private void lrange(CommandContext ctx) {
        long start = ctx.longArg(2);
        long end = ctx.longArg(3);
        ListValue list = readList(ctx, ctx.key(1));
        if (list == null) {
            ctx.reply().emptyArray();
            return;
        }
        long size = list.size();
        start = start < 0 ? Math.max(0, size + start) : start;
        end = end < 0 ? size + end : Math.min(end, size - 1);
        if (start > end || start >= size) {
            ctx.reply().emptyArray();
            return;
        }
        ctx.reply().array((int) (end - start + 1));
        for (int i = (int) start; i <= end; i++) {
            ctx.reply().bulk(list.get(i));
        }
    }

    /** A Redis list index (negative counts from the tail) as a position, or -1 when outside the list. */
    private static int position(long index, int size) {
        if (index < 0) {
            index += size;
        }
        return index < 0 || index >= size ? -1 : (int) index;
    }

    private void lindex(CommandContext ctx) {
        ListValue list = readList(ctx, ctx.key(1));
        if (list == null) {
            ctx.reply().nullBulk();
            return;
        }
        int at = position(ctx.longArg(2), list.size());
        ctx.reply().bulk(at < 0 ? null : list.get(at));
    }

    private void lset(CommandContext ctx) {
        Bytes key = ctx.key(1);
        ListValue list = writeList(ctx, key);
        if (list == null) {
            throw RedisError.NO_SUCH_KEY;
        }
        int at = position(ctx.longArg(2), list.size());
        if (at < 0) {
            throw RedisError.INDEX_OUT_OF_RANGE;
        }
        list.set(at, ctx.arg(3));
        ctx.reply().ok();
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.LIST, "lset", key);
        ctx.dirty(1);
    }

    private void linsert(CommandContext ctx) {
        boolean after;
        if (ctx.is(2, "after")) {
            after = true;
        } else if (ctx.is(2, "before")) {
            after = false;
        } else {
            throw RedisError.SYNTAX;
        }
        Bytes key = ctx.key(1);
        ListValue list = writeList(ctx, key);
        if (list == null) {
            ctx.reply().integer(0);
            return;
        }
        byte[] pivot = ctx.arg(3);
        for (int i = 0; i < list.size(); i++) {
            if (Arrays.equals(list.get(i), pivot)) {
                list.insertAt(after ? i + 1 : i, ctx.arg(4));
                ctx.signalModified(key);
                ctx.notifyEvent(KeyspaceEvents.LIST, "linsert", key);
                ctx.dirty(1);
                ctx.reply().integer(list.size());
                return;
            }
        }
        ctx.reply().integer(-1);
    }

    private void lrem(CommandContext ctx) {
        long count = ctx.longArg(2);
        Bytes key = ctx.key(1);
        ListValue list = writeList(ctx, key);
        if (list == null) {
            ctx.reply().integer(0);
            return;
        }
        boolean fromTail = count < 0;
        // |Long.MIN_VALUE| does not fit: any limit that large means "all of them" for a list anyway.
        long limit = count == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(count);
        int removed = list.removeMatching(ctx.arg(3), limit, fromTail);
        if (removed > 0) {
            ctx.signalModified(key);
            ctx.notifyEvent(KeyspaceEvents.LIST, "lrem", key);
            ctx.dirty(removed);
        }
        if (list.isEmpty()) {
            ctx.db().delete(key);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
        }
        ctx.reply().integer(removed);
    }

    private void ltrim(CommandContext ctx) {
        long start = ctx.longArg(2);
        long end = ctx.longArg(3);
        Bytes key = ctx.key(1);
        ListValue list = writeList(ctx, key);
        if (list == null) {
            ctx.reply().ok();
            return;
        }
        int size = list.size();
        start = start < 0 ? Math.max(0, size + start) : start;
        end = end < 0 ? size + end : Math.min(end, size - 1);
        int removed;
        if (start > end || start >= size) {
            removed = size;
            list.trim(0, -1);
        } else {
            removed = size - (int) (end - start + 1);
            if (removed > 0) {
                list.trim((int) start, (int) end);
            }
        }
        ctx.notifyEvent(KeyspaceEvents.LIST, "ltrim", key);
        if (list.isEmpty()) {
            ctx.db().delete(key);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
        }
        ctx.signalModified(key);
        ctx.dirty(removed);
        ctx.reply().ok();
    }
}
