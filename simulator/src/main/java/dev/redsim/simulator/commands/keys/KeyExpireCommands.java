package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;

/** The TTL commands of expire.c: EXPIRE and friends, TTL and friends, PERSIST. */
public final class KeyExpireCommands implements CommandFamily {
    private static final int NX = 1;
    private static final int XX = 2;
    private static final int GT = 4;
    private static final int LT = 8;
    private static final RedisError NX_CONFLICT =
            new RedisError("ERR NX and XX, GT or LT options at the same time are not compatible");
    private static final RedisError GT_LT_CONFLICT =
            new RedisError("ERR GT and LT options at the same time are not compatible");

    @Override
    public void register(CommandTable t) {
        t.handler("expire", ctx -> expire(ctx, 1000, false));
        t.handler("pexpire", ctx -> expire(ctx, 1, false));
        t.handler("expireat", ctx -> expire(ctx, 1000, true));
        t.handler("pexpireat", ctx -> expire(ctx, 1, true));
        t.handler("ttl", ctx -> ttl(ctx, false, false));
        t.handler("pttl", ctx -> ttl(ctx, true, false));
        t.handler("expiretime", ctx -> ttl(ctx, false, true));
        t.handler("pexpiretime", ctx -> ttl(ctx, true, true));
        t.handler("persist", this::persist);
    }

    private static int parseFlags(CommandContext ctx) {
        int flags = 0;
        for (int i = 3; i < ctx.argc(); i++) {
            if (ctx.is(i, "nx")) {
                flags |= NX;
            } else if (ctx.is(i, "xx")) {
                flags |= XX;
            } else if (ctx.is(i, "gt")) {
                flags |= GT;
            } else if (ctx.is(i, "lt")) {
                flags |= LT;
            } else {
                throw new RedisError("ERR Unsupported option " + ctx.text(i));
            }
        }
        if ((flags & NX) != 0 && (flags & (XX | GT | LT)) != 0) {
            throw NX_CONFLICT;
        }
        if ((flags & GT) != 0 && (flags & LT) != 0) {
            throw GT_LT_CONFLICT;
        }
        return flags;
    }

    private void expire(CommandContext ctx, long unitMillis, boolean absolute) {
        int flags = parseFlags(ctx);
        long when = ctx.longArg(2);
        RedisError invalid = RedisError.invalidExpireTime(ctx.spec().name());
        if (unitMillis == 1000) {
            if (when > Long.MAX_VALUE / 1000 || when < Long.MIN_VALUE / 1000) {
                throw invalid;
            }
            when *= 1000;
        }
        long base = absolute ? 0 : ctx.now();
        if (when > Long.MAX_VALUE - base) {
            throw invalid;
        }
        when += base;
        Bytes key = ctx.key(1);
        Database db = ctx.db();
        if (db.get(key) == null) {
            ctx.reply().integer(0);
            return;
        }
        if (flags != 0 && !conditionHolds(flags, db.expireAt(key), when)) {
            ctx.reply().integer(0);
            return;
        }
        ctx.signalModified(key);
        ctx.dirty(1);
        if (when <= ctx.now()) {
            // A time already past deletes the key at once, reported as a deletion.
            db.delete(key);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
            boolean lazy = ctx.engine().config().get("lazyfree-lazy-expire").equals("yes");
            ctx.propagateAs(lazy ? "UNLINK" : "DEL", ctx.arg(1));
        } else {
            db.setExpire(key, when);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "expire", key);
            // the replica gets the absolute time in ms, the options kept (PEXPIREAT key ms [NX|XX|GT|LT])
            byte[][] rewritten = ctx.args().clone();
            rewritten[0] = "PEXPIREAT".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            rewritten[2] = Long.toString(when).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            ctx.propagateAs(rewritten);
        }
        ctx.reply().integer(1);
    }

    /** NX/XX/GT/LT against the current expiry (-1 for none, which counts as infinite). */
    private static boolean conditionHolds(int flags, long current, long when) {
        if ((flags & NX) != 0 && current != -1) {
            return false;
        }
        if ((flags & XX) != 0 && current == -1) {
            return false;
        }
        if ((flags & GT) != 0 && (current == -1 || when <= current)) {
            return false;
        }
        return (flags & LT) == 0 || current == -1 || when < current;
    }

    private void ttl(CommandContext ctx, boolean millis, boolean absolute) {
        Bytes key = ctx.key(1);
        Database db = ctx.db();
        if (db.peekForRead(key) == null) {
            ctx.reply().integer(-2);
            return;
        }
        long expire = db.expireAt(key);
        if (expire == -1) {
            ctx.reply().integer(-1);
            return;
        }
        long value = Math.max(0, absolute ? expire : expire - ctx.now());
        ctx.reply().integer(millis ? value : (value + 500) / 1000);
    }

    private void persist(CommandContext ctx) {
        Bytes key = ctx.key(1);
        Database db = ctx.db();
        if (db.get(key) != null && db.persist(key)) {
            ctx.signalModified(key);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "persist", key);
            ctx.dirty(1);
            ctx.reply().integer(1);
            return;
        }
        ctx.reply().integer(0);
    }
}
