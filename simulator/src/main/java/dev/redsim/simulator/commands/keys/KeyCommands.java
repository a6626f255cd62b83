package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.RedisValue;

/** The generic key commands of db.c and expire.c. */
public final class KeyCommands implements CommandFamily {
    private static final RedisError INT_RANGE =
            new RedisError("ERR value is out of range, value must between -2147483648 and 2147483647");
    private static final RedisError SAME_OBJECT = new RedisError("ERR source and destination objects are the same");
    private final KeyExpireCommands expiry = new KeyExpireCommands();
    private final KeyspaceIteration iteration = new KeyspaceIteration();
    private final KeyObjectCommands object = new KeyObjectCommands();

    @Override
    public void register(CommandTable t) {
        expiry.register(t);
        iteration.register(t);
        object.register(t);
        t.handler("del", this::del);
        t.handler("unlink", this::del);
        t.handler("exists", this::exists);
        t.handler("type", this::type);
        t.handler("touch", this::touch);
        t.handler("rename", ctx -> rename(ctx, false));
        t.handler("renamenx", ctx -> rename(ctx, true));
        t.handler("move", this::move);
        t.handler("copy", this::copy);
    }

    private void del(CommandContext ctx) {
        // delGenericCommand's lazy flag: UNLINK always, DEL when lazyfree-lazy-user-del is on
        boolean lazy = ctx.spec().name().equals("unlink")
                || ctx.engine().config().get("lazyfree-lazy-user-del").equals("yes");
        long deleted = 0;
        for (int i = 1; i < ctx.argc(); i++) {
            Bytes key = ctx.key(i);
            ctx.db().expireIfNeeded(key);
            if (lazy) {
                LazyFree.unlinked(ctx, ctx.db().peek(key));
            }
            if (ctx.db().delete(key)) {
                ctx.signalModified(key);
                ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
                ctx.dirty(1);
                deleted++;
            }
        }
        ctx.reply().integer(deleted);
    }

    /** EXISTS counts the existing keys without marking them accessed. */
    private void exists(CommandContext ctx) {
        long count = 0;
        for (int i = 1; i < ctx.argc(); i++) {
            if (ctx.db().peekForRead(ctx.key(i)) != null) {
                count++;
            }
        }
        ctx.reply().integer(count);
    }

    /** TOUCH counts the existing keys too, and marks them as just accessed. */
    private void touch(CommandContext ctx) {
        long count = 0;
        for (int i = 1; i < ctx.argc(); i++) {
            if (ctx.db().getForRead(ctx.key(i)) != null) {
                count++;
            }
        }
        ctx.reply().integer(count);
    }

    private void type(CommandContext ctx) {
        RedisValue value = ctx.db().peekForRead(ctx.key(1));
        ctx.reply().simple(value == null ? "none" : value.typeName());
    }

    private void rename(CommandContext ctx, boolean onlyIfAbsent) {
        Bytes src = ctx.key(1);
        Bytes dst = ctx.key(2);
        Database db = ctx.db();
        RedisValue value = db.get(src);
        if (value == null) {
            throw RedisError.NO_SUCH_KEY;
        }
        if (src.equals(dst)) {
            if (onlyIfAbsent) {
                ctx.reply().integer(0);
            } else {
                ctx.reply().ok();
            }
            return;
        }
        long expire = db.expireAt(src);
        if (db.get(dst) != null) {
            if (onlyIfAbsent) {
                ctx.reply().integer(0);
                return;
            }
            db.delete(dst);
        }
        db.delete(src);
        db.put(dst, value);
        if (expire != -1) {
            db.setExpire(dst, expire);
        }
        ctx.signalModified(src);
        ctx.signalModified(dst);
        ctx.notifyEvent(KeyspaceEvents.GENERIC, "rename_from", src);
        ctx.notifyEvent(KeyspaceEvents.GENERIC, "rename_to", dst);
        ctx.dirty(1);
        if (onlyIfAbsent) {
            ctx.reply().integer(1);
        } else {
            ctx.reply().ok();
        }
    }

    /** A database index argument: an int, and one of ours ("ERR DB index is out of range" otherwise). */
    private static Database targetDb(CommandContext ctx, int argIndex) {
        long index = ctx.longArg(argIndex);
        if (index < 0 || index >= ctx.engine().databaseCount() || index > Integer.MAX_VALUE) {
            throw RedisError.DB_INDEX_OUT_OF_RANGE;
        }
        return ctx.engine().database((int) index);
    }

    private void move(CommandContext ctx) {
        if (clusterEnabled(ctx)) { // a cluster node has database 0 only
            throw new RedisError("ERR MOVE is not allowed in cluster mode");
        }
        Long index = Numbers.parseLongStrict(ctx.arg(2));
        if (index == null) {
            throw RedisError.NOT_INTEGER;
        }
        if (index < Integer.MIN_VALUE || index > Integer.MAX_VALUE) {
            throw INT_RANGE;
        }
        Database dst = targetDb(ctx, 2);
        Database src = ctx.db();
        if (src == dst) {
            throw SAME_OBJECT;
        }
        Bytes key = ctx.key(1);
        RedisValue value = src.get(key);
        if (value == null) {
            ctx.reply().integer(0);
            return;
        }
        long expire = src.expireAt(key);
        if (dst.get(key) != null) {
            ctx.reply().integer(0);
            return;
        }
        dst.put(key, value);
        if (expire != -1) {
            dst.setExpire(key, expire);
        }
        src.delete(key);
        ctx.engine().signalModifiedKey(ctx.client(), src.id(), key);
        ctx.engine().signalModifiedKey(ctx.client(), dst.id(), key);
        ctx.engine().notifyKeyspaceEvent(KeyspaceEvents.GENERIC, "move_from", key, src.id());
        ctx.engine().notifyKeyspaceEvent(KeyspaceEvents.GENERIC, "move_to", key, dst.id());
        ctx.dirty(1);
        ctx.reply().integer(1);
    }

    private void copy(CommandContext ctx) {
        Database src = ctx.db();
        Database dst = src;
        boolean replace = false;
        for (int i = 3; i < ctx.argc(); i++) {
            if (ctx.is(i, "replace")) {
                replace = true;
            } else if (ctx.is(i, "db") && i + 1 < ctx.argc()) {
                dst = targetDb(ctx, ++i);
            } else {
                throw RedisError.SYNTAX;
            }
        }
        if (dst != src && clusterEnabled(ctx)) {
            throw new RedisError("ERR Copying to another database is not allowed in cluster mode");
        }
        Bytes from = ctx.key(1);
        Bytes to = ctx.key(2);
        if (src == dst && from.equals(to)) {
            throw SAME_OBJECT;
        }
        RedisValue value = src.getForRead(from);
        if (value == null) {
            ctx.reply().integer(0);
            return;
        }
        long expire = src.expireAt(from);
        if (dst.get(to) != null) {
            if (!replace) {
                ctx.reply().integer(0);
                return;
            }
            dst.delete(to);
        }
        dst.put(to, value.copy());
        if (expire != -1) {
            dst.setExpire(to, expire);
        }
        ctx.engine().signalModifiedKey(ctx.client(), dst.id(), to);
        ctx.engine().notifyKeyspaceEvent(KeyspaceEvents.GENERIC, "copy_to", to, dst.id());
        ctx.dirty(1);
        ctx.reply().integer(1);
    }

    private static boolean clusterEnabled(CommandContext ctx) {
        return "yes".equals(ctx.engine().config().get("cluster-enabled"));
    }
}
