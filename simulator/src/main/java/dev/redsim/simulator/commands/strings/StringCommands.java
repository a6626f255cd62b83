package dev.redsim.simulator.commands.strings;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.KeyRef;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.StringValue;
import dev.redsim.simulator.util.ChunkedBytes;

import java.util.List;

/** The string commands of t_string.c. */
public final class StringCommands implements CommandFamily {
    private static final int NX = 1;
    private static final int XX = 2;
    private static final int GET = 4;
    private static final int KEEPTTL = 8;
    private static final int EX = 16;
    private static final int PX = 32;
    private static final int EXAT = 64;
    private static final int PXAT = 128;
    private static final int PERSIST = 256;
    private static final int ANY_EXPIRE = EX | PX | EXAT | PXAT;

    @Override
    public void register(CommandTable t) {
        t.handler("get", this::get);
        t.handler("set", this::set, StringCommands::setKeys);
        t.handler("setnx", this::setnx);
        t.handler("setex", ctx -> setWithExpire(ctx, 1000));
        t.handler("psetex", ctx -> setWithExpire(ctx, 1));
        t.handler("mget", this::mget);
        t.handler("mset", ctx -> mset(ctx, false));
        t.handler("msetnx", ctx -> mset(ctx, true));
        t.handler("getset", this::getset);
        t.handler("getdel", this::getdel);
        t.handler("append", this::append);
        t.handler("strlen", this::strlen);
        t.handler("incr", ctx -> incrBy(ctx, 1));
        t.handler("decr", ctx -> incrBy(ctx, -1));
        t.handler("incrby", ctx -> incrBy(ctx, ctx.longArg(2)));
        t.handler("decrby", this::decrBy);
    }

    /** The string under a key for reading, or null; WRONGTYPE for other types. */
    static StringValue readString(CommandContext ctx, Bytes key) {
        return ctx.db().getForRead(key, StringValue.class);
    }

    private void get(CommandContext ctx) {
        reply(ctx, readString(ctx, ctx.key(1)));
    }

    /** A string value as a bulk reply (null: a null bulk); one kept in chunks is written from them. */
    static void reply(CommandContext ctx, StringValue value) {
        ChunkedBytes chunks = value == null ? null : value.chunks();
        if (chunks != null) {
            ctx.reply().bulk(chunks);
        } else {
            ctx.reply().bulk(value == null ? null : value.bytes());
        }
    }

    /** The string value argument {@code i} of a command that stores it: kept in chunks if it came so. */
    private static StringValue valueArg(CommandContext ctx, int i) {
        ChunkedBytes chunks = ctx.chunkedArg(i);
        return chunks != null ? StringValue.of(chunks) : StringValue.of(ctx.arg(i));
    }

    private void set(CommandContext ctx) {
        int flags = 0;
        byte[] expire = null;
        for (int j = 3; j < ctx.argc(); j++) {
            boolean hasNext = j + 1 < ctx.argc();
            if (ctx.is(j, "nx") && (flags & XX) == 0) {
                flags |= NX;
            } else if (ctx.is(j, "xx") && (flags & NX) == 0) {
                flags |= XX;
            } else if (ctx.is(j, "get")) {
                flags |= GET;
            } else if (ctx.is(j, "keepttl") && (flags & (PERSIST | ANY_EXPIRE)) == 0) {
                flags |= KEEPTTL;
            } else if (ctx.is(j, "ex") && (flags & (KEEPTTL | PERSIST | EXAT | PX | PXAT)) == 0 && hasNext) {
                flags |= EX;
                expire = ctx.arg(++j);
            } else if (ctx.is(j, "px") && (flags & (KEEPTTL | PERSIST | EX | EXAT | PXAT)) == 0 && hasNext) {
                flags |= PX;
                expire = ctx.arg(++j);
            } else if (ctx.is(j, "exat") && (flags & (KEEPTTL | PERSIST | EX | PX | PXAT)) == 0 && hasNext) {
                flags |= EXAT;
                expire = ctx.arg(++j);
            } else if (ctx.is(j, "pxat") && (flags & (KEEPTTL | PERSIST | EX | EXAT | PX)) == 0 && hasNext) {
                flags |= PXAT;
                expire = ctx.arg(++j);
            } else {
                throw RedisError.SYNTAX;
            }
        }
        long when = expire == null ? 0 : expireMillis(ctx, expire, flags, "set");
        Bytes key = ctx.key(1);
        Database db = ctx.db();
        if ((flags & GET) != 0) {
            reply(ctx, readString(ctx, key));
        }
        boolean found = db.get(key) != null;
        if (((flags & NX) != 0 && found) || ((flags & XX) != 0 && !found)) {
            if ((flags & GET) == 0) {
                ctx.reply().nullBulk();
            }
            return;
        }
        store(ctx, key, valueArg(ctx, 2), (flags & KEEPTTL) != 0);
        if (expire != null) {
            db.setExpire(key, when);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "expire", key);
            // a relative time would mean another moment on the replica: it gets the absolute one, and only that
            // (Redis 7.0 rewrites any SET with an expiry to these five arguments, PXAT included)
            ctx.propagateAs("SET", ctx.arg(1), ctx.sentArg(2), "PXAT", when);
        } else if ((flags & GET) != 0) {
            ctx.propagateAs(withoutGet(ctx.args())); // the replica has no one to answer
        }
        if ((flags & GET) == 0) {
            ctx.reply().ok();
        }
    }

    /** SET's arguments without its GET options (which may be repeated), as Redis 7.0 propagates them. */
    private static byte[][] withoutGet(byte[][] args) {
        List<byte[]> kept = new java.util.ArrayList<>();
        for (int j = 0; j < args.length; j++) {
            if (j < 3 || !CommandTable.lowerAscii(args[j]).equals("get")) {
                kept.add(args[j]);
            }
        }
        return kept.toArray(new byte[0][]);
    }

    /**
     * SET's key with the flags of this call. Redis keeps a key procedure for SET (its key spec is marked
     * variable_flags): only the optional GET reads the old value, so the key is "RW access update" with GET
     * anywhere after the value and "OW update" (only overwritten) without.
     */
    private static List<KeyRef> setKeys(byte[][] args) {
        for (int i = 3; i < args.length; i++) {
            if (CommandTable.lowerAscii(args[i]).equals("get")) {
                return List.of(new KeyRef(1, List.of("RW", "access", "update")));
            }
        }
        return List.of(new KeyRef(1, List.of("OW", "update")));
    }

    /** Stores a string as setKey does: signals the change and reports the "set" event. */
    static void store(CommandContext ctx, Bytes key, StringValue value, boolean keepTtl) {
        if (keepTtl) {
            ctx.db().putKeepTtl(key, value);
        } else {
            ctx.db().put(key, value);
        }
        ctx.signalModified(key);
        ctx.dirty(1);
        ctx.notifyEvent(KeyspaceEvents.STRING, "set", key);
    }

    /**
     * The absolute expiry in ms from an EX/PX/EXAT/PXAT argument, with Redis's checks: an integer, positive,
     * and no overflow once converted ("invalid expire time in '<command>' command").
     */
    static long expireMillis(CommandContext ctx, byte[] arg, int flags, String command) {
        Long value = Numbers.parseLongStrict(arg);
        if (value == null) {
            throw RedisError.NOT_INTEGER;
        }
        long ms = value;
        boolean seconds = (flags & (EX | EXAT)) != 0;
        if (ms <= 0 || (seconds && ms > Long.MAX_VALUE / 1000)) {
            throw RedisError.invalidExpireTime(command);
        }
        if (seconds) {
            ms *= 1000;
        }
        if ((flags & (EX | PX)) != 0) {
            ms += ctx.now();
        }
        if (ms <= 0) {
            throw RedisError.invalidExpireTime(command);
        }
        return ms;
    }

    private void setnx(CommandContext ctx) {
        Bytes key = ctx.key(1);
        if (ctx.db().get(key) != null) {
            ctx.reply().integer(0);
            return;
        }
        store(ctx, key, valueArg(ctx, 2), false);
        ctx.reply().integer(1);
    }

    private void setWithExpire(CommandContext ctx, long unitMillis) {
        int flags = unitMillis == 1000 ? EX : PX;
        long when = expireMillis(ctx, ctx.arg(2), flags, ctx.spec().name());
        Bytes key = ctx.key(1);
        store(ctx, key, valueArg(ctx, 3), false);
        ctx.db().setExpire(key, when);
        ctx.notifyEvent(KeyspaceEvents.GENERIC, "expire", key);
        ctx.propagateAs("SET", ctx.arg(1), ctx.sentArg(3), "PXAT", when); // SETEX / PSETEX go through setGenericCommand
        ctx.reply().ok();
    }

    private void mget(CommandContext ctx) {
        ctx.reply().array(ctx.argc() - 1);
        for (int i = 1; i < ctx.argc(); i++) {
            Object value = ctx.db().getForRead(ctx.key(i));
            reply(ctx, value instanceof StringValue s ? s : null);
        }
    }

    private void mset(CommandContext ctx, boolean onlyIfNoneExist) {
        if (ctx.argc() % 2 == 0) {
            throw RedisError.wrongArity(ctx.spec().name());
        }
        if (onlyIfNoneExist) {
            for (int i = 1; i < ctx.argc(); i += 2) {
                if (ctx.db().get(ctx.key(i)) != null) {
                    ctx.reply().integer(0);
                    return;
                }
            }
        }
        for (int i = 1; i < ctx.argc(); i += 2) {
            store(ctx, ctx.key(i), valueArg(ctx, i + 1), false);
        }
        if (onlyIfNoneExist) {
            ctx.reply().integer(1);
        } else {
            ctx.reply().ok();
        }
    }

    private void getset(CommandContext ctx) {
        Bytes key = ctx.key(1);
        reply(ctx, readString(ctx, key));
        store(ctx, key, valueArg(ctx, 2), false);
        ctx.propagateAs("SET", ctx.arg(1), ctx.sentArg(2));
    }

    private void getdel(CommandContext ctx) {
        Bytes key = ctx.key(1);
        StringValue old = readString(ctx, key);
        if (old == null) {
            ctx.reply().nullBulk();
            return;
        }
        reply(ctx, old);
        ctx.db().delete(key);
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
        ctx.dirty(1);
        ctx.propagateAs("DEL", ctx.arg(1));
    }

    private void append(CommandContext ctx) {
        Bytes key = ctx.key(1);
        StringValue current = ctx.db().get(key, StringValue.class);
        byte[] suffix = ctx.arg(2);
        byte[] result;
        if (current == null) {
            result = suffix;
            ctx.db().put(key, StringValue.of(suffix));
        } else {
            checkStringLength(ctx, (long) current.length() + suffix.length);
            result = new byte[current.length() + suffix.length];
            System.arraycopy(current.bytes(), 0, result, 0, current.length());
            System.arraycopy(suffix, 0, result, current.length(), suffix.length);
            ctx.db().putKeepTtl(key, StringValue.edited(result));
        }
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.STRING, "append", key);
        ctx.dirty(1);
        ctx.reply().integer(result.length);
    }

    /** Strings stop at proto-max-bulk-len, as checkStringLength in t_string.c. */
    static void checkStringLength(CommandContext ctx, long size) {
        if (size > ctx.engine().config().protoMaxBulkLen()) {
            throw new RedisError("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
        }
    }

    private void strlen(CommandContext ctx) {
        StringValue value = readString(ctx, ctx.key(1));
        ctx.reply().integer(value == null ? 0 : value.length());
    }

    private void decrBy(CommandContext ctx) {
        long by = ctx.longArg(2);
        if (by == Long.MIN_VALUE) {
            throw new RedisError("ERR decrement would overflow");
        }
        incrBy(ctx, -by);
    }

    private void incrBy(CommandContext ctx, long by) {
        Bytes key = ctx.key(1);
        StringValue current = ctx.db().get(key, StringValue.class);
        long value = 0;
        if (current != null) {
            if (!current.isInteger()) {
                throw RedisError.NOT_INTEGER;
            }
            value = current.longValue();
        }
        if ((by < 0 && value < 0 && by < Long.MIN_VALUE - value) || (by > 0 && value > 0 && by > Long.MAX_VALUE - value)) {
            throw RedisError.OVERFLOW;
        }
        long result = value + by;
        StringValue stored = StringValue.ofInteger(result);
        ctx.db().putKeepTtl(key, stored);
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.STRING, "incrby", key);
        ctx.dirty(1);
        ctx.reply().integerText(stored.readArray()); // the digits just made: formatted once, as Redis's reply is
    }
}
