package dev.redsim.simulator.commands.sets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.common.ScanOptions;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.SetValue;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.util.ScanCursor;

import java.util.ArrayList;
import java.util.List;

/** The set commands of t_set.c that work on one set at a time; the multi-set algebra is in {@link SetAlgebra}. */
public final class SetCommands implements CommandFamily {
    private final SetAlgebra algebra = new SetAlgebra();
    private final SetRandom random = new SetRandom();

    @Override
    public void register(CommandTable t) {
        t.handler("sadd", this::sadd);
        t.handler("srem", this::srem);
        t.handler("smembers", this::smembers);
        t.handler("sismember", this::sismember);
        t.handler("smismember", this::smismember);
        t.handler("scard", this::scard);
        t.handler("smove", this::smove);
        t.handler("sscan", this::sscan);
        random.register(t);
        algebra.register(t);
    }

    /** The set under a key for a read, null when absent; WRONGTYPE for other types. */
    static SetValue readSet(CommandContext ctx, Bytes key) {
        return ctx.db().getForRead(key, SetValue.class);
    }

    /** Deletes a set that became empty and reports the generic "del" event, as Redis does after a removal. */
    static void deleteIfEmpty(CommandContext ctx, Bytes key, SetValue set) {
        if (set.isEmpty()) {
            ctx.db().delete(key);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
        }
    }

    private void sadd(CommandContext ctx) {
        Bytes key = ctx.key(1);
        Database db = ctx.db();
        SetValue set = db.get(key, SetValue.class);
        if (set == null) {
            set = new SetValue();
            db.put(key, set);
        }
        long added = 0;
        for (int i = 2; i < ctx.argc(); i++) {
            if (set.add(ctx.arg(i), ctx.engine().config())) {
                added++;
            }
        }
        if (added > 0) {
            ctx.signalModified(key);
            ctx.notifyEvent(KeyspaceEvents.SET, "sadd", key);
        }
        ctx.dirty(added);
        ctx.reply().integer(added);
    }

    private void srem(CommandContext ctx) {
        Bytes key = ctx.key(1);
        SetValue set = ctx.db().get(key, SetValue.class);
        long removed = 0;
        if (set != null) {
            for (int i = 2; i < ctx.argc() && !set.isEmpty(); i++) {
                if (set.remove(ctx.arg(i))) {
                    removed++;
                }
            }
        }
        if (removed > 0) {
            ctx.signalModified(key);
            ctx.notifyEvent(KeyspaceEvents.SET, "srem", key);
            deleteIfEmpty(ctx, key, set);
            ctx.dirty(removed);
        }
        ctx.reply().integer(removed);
    }

    private void smembers(CommandContext ctx) {
        SetValue set = readSet(ctx, ctx.key(1));
        if (set == null) {
            ctx.reply().set(0);
            return;
        }
        writeMembers(ctx.reply(), set);
    }

    /** A whole set as a set reply (RESP3 set, RESP2 array), in the set's own order. */
    static void writeMembers(Reply reply, SetValue set) {
        reply.set(set.size());
        set.forEach(reply::bulk);
    }

    private void sismember(CommandContext ctx) {
        SetValue set = readSet(ctx, ctx.key(1));
        ctx.reply().integer(set != null && set.contains(ctx.arg(2)) ? 1 : 0);
    }

    private void smismember(CommandContext ctx) {
        SetValue set = readSet(ctx, ctx.key(1));
        ctx.reply().array(ctx.argc() - 2);
        for (int i = 2; i < ctx.argc(); i++) {
            ctx.reply().integer(set != null && set.contains(ctx.arg(i)) ? 1 : 0);
        }
    }

    private void scard(CommandContext ctx) {
        SetValue set = readSet(ctx, ctx.key(1));
        ctx.reply().integer(set == null ? 0 : set.size());
    }

    private void smove(CommandContext ctx) {
        Bytes src = ctx.key(1);
        Bytes dst = ctx.key(2);
        byte[] member = ctx.arg(3);
        Database db = ctx.db();
        RedisValue srcValue = db.get(src);
        RedisValue dstValue = db.get(dst);
        // Redis answers 0 for a missing source before it checks either type.
        if (srcValue == null) {
            ctx.reply().integer(0);
            return;
        }
        if (!(srcValue instanceof SetValue srcSet) || (dstValue != null && !(dstValue instanceof SetValue))) {
            throw RedisError.WRONGTYPE;
        }
        if (srcValue == dstValue) {
            ctx.reply().integer(srcSet.contains(member) ? 1 : 0);
            return;
        }
        if (!srcSet.remove(member)) {
            ctx.reply().integer(0);
            return;
        }
        ctx.notifyEvent(KeyspaceEvents.SET, "srem", src);
        deleteIfEmpty(ctx, src, srcSet);
        SetValue dstSet = (SetValue) dstValue;
        if (dstSet == null) {
            dstSet = new SetValue();
            db.put(dst, dstSet);
        }
        ctx.signalModified(src);
        ctx.dirty(1);
        // The destination counts as changed (WATCH, "sadd") only when the member was not there already.
        if (dstSet.add(member, ctx.engine().config())) {
            ctx.dirty(1);
            ctx.signalModified(dst);
            ctx.notifyEvent(KeyspaceEvents.SET, "sadd", dst);
        }
        ctx.reply().integer(1);
    }

    private void sscan(CommandContext ctx) {
        long cursor = ScanCursor.parse(ctx.arg(2));
        SetValue set = readSet(ctx, ctx.key(1));
        if (set == null) {
            ScanOptions.writeEmpty(ctx.reply());
            return;
        }
        ScanOptions options = ScanOptions.parse(ctx, 3, false);
        if (set.isIntset()) {
            // Redis returns a compact encoding whole, with cursor 0, whatever COUNT says.
            options.writePage(ctx.reply(), 0, set.toList());
            return;
        }
        List<byte[]> members = new ArrayList<>();
        long next = set.scanPage(cursor, options.count(), members);
        options.writePage(ctx.reply(), next, members);
    }
}
