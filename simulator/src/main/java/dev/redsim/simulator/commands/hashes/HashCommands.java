package dev.redsim.simulator.commands.hashes;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.HashValue;

import java.util.Map;

/**
 * The hash commands of t_hash.c that read and write fields; counters are in {@link HashCounterCommands},
 * HRANDFIELD and HSCAN in {@link HashSamplingCommands}.
 */
public final class HashCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("hset", ctx -> hset(ctx, false));
        t.handler("hmset", ctx -> hset(ctx, true));
        t.handler("hsetnx", this::hsetnx);
        t.handler("hget", this::hget);
        t.handler("hmget", this::hmget);
        t.handler("hdel", this::hdel);
        t.handler("hexists", this::hexists);
        t.handler("hlen", this::hlen);
        t.handler("hstrlen", this::hstrlen);
        t.handler("hkeys", ctx -> all(ctx, true, false));
        t.handler("hvals", ctx -> all(ctx, false, true));
        t.handler("hgetall", ctx -> all(ctx, true, true));
        new HashCounterCommands().register(t);
        new HashSamplingCommands().register(t);
    }

    /** The hash under a key for reading (counts hits/misses), or null; WRONGTYPE for other types. */
    static HashValue readHash(CommandContext ctx, Bytes key) {
        return ctx.db().getForRead(key, HashValue.class);
    }

    /** hashTypeLookupWriteOrCreate: the hash under a key, created empty (and stored) when missing. */
    static HashValue writeHashOrCreate(CommandContext ctx, Bytes key) {
        HashValue hash = ctx.db().get(key, HashValue.class);
        if (hash == null) {
            hash = new HashValue();
            ctx.db().put(key, hash);
        }
        return hash;
    }

    /** The side effects of a write that changed fields of a hash. */
    static void changed(CommandContext ctx, Bytes key, String event, long dirty) {
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.HASH, event, key);
        ctx.dirty(dirty);
    }

    private void hset(CommandContext ctx, boolean legacyReply) {
        if (ctx.argc() % 2 == 1) {
            throw RedisError.wrongArity(ctx.spec().name());
        }
        Bytes key = ctx.key(1);
        HashValue hash = writeHashOrCreate(ctx, key);
        hash.convertForArguments(ctx.engine().config(), ctx.args(), 2, ctx.argc() - 1);
        long created = 0;
        for (int i = 2; i < ctx.argc(); i += 2) {
            if (!hash.set(ctx.engine().config(), ctx.key(i), ctx.arg(i + 1))) {
                created++;
            }
        }
        if (legacyReply) {
            ctx.reply().ok();
        } else {
            ctx.reply().integer(created);
        }
        changed(ctx, key, "hset", (ctx.argc() - 2) / 2);
    }

    private void hsetnx(CommandContext ctx) {
        Bytes key = ctx.key(1);
        HashValue hash = writeHashOrCreate(ctx, key);
        Bytes field = ctx.key(2);
        if (hash.contains(field)) {
            ctx.reply().integer(0);
            return;
        }
        hash.convertForArguments(ctx.engine().config(), ctx.args(), 2, 3);
        hash.set(ctx.engine().config(), field, ctx.arg(3));
        ctx.reply().integer(1);
        changed(ctx, key, "hset", 1);
    }

    private void hget(CommandContext ctx) {
        HashValue hash = readHash(ctx, ctx.key(1));
        ctx.reply().bulk(hash == null ? null : hash.get(ctx.key(2)));
    }

    private void hmget(CommandContext ctx) {
        HashValue hash = readHash(ctx, ctx.key(1));
        ctx.reply().array(ctx.argc() - 2);
        for (int i = 2; i < ctx.argc(); i++) {
            ctx.reply().bulk(hash == null ? null : hash.get(ctx.key(i)));
        }
    }

    private void hdel(CommandContext ctx) {
        Bytes key = ctx.key(1);
        HashValue hash = ctx.db().get(key, HashValue.class);
        if (hash == null) {
            ctx.reply().integer(0);
            return;
        }
        long deleted = 0;
        boolean keyRemoved = false;
        for (int i = 2; i < ctx.argc(); i++) {
            if (hash.remove(ctx.key(i))) {
                deleted++;
                if (hash.isEmpty()) {
                    ctx.db().delete(key);
                    keyRemoved = true;
                    break;
                }
            }
        }
        if (deleted > 0) {
            changed(ctx, key, "hdel", deleted);
            if (keyRemoved) {
                ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", key);
            }
        }
        ctx.reply().integer(deleted);
    }

    private void hexists(CommandContext ctx) {
        HashValue hash = readHash(ctx, ctx.key(1));
        ctx.reply().integer(hash != null && hash.contains(ctx.key(2)) ? 1 : 0);
    }

    private void hlen(CommandContext ctx) {
        HashValue hash = readHash(ctx, ctx.key(1));
        ctx.reply().integer(hash == null ? 0 : hash.size());
    }

    private void hstrlen(CommandContext ctx) {
        HashValue hash = readHash(ctx, ctx.key(1));
        byte[] value = hash == null ? null : hash.get(ctx.key(2));
        ctx.reply().integer(value == null ? 0 : value.length);
    }

    /** HKEYS, HVALS and HGETALL: HGETALL is a map (RESP3), the others arrays. */
    private void all(CommandContext ctx, boolean fields, boolean values) {
        HashValue hash = readHash(ctx, ctx.key(1));
        int size = hash == null ? 0 : hash.size();
        if (fields && values) {
            ctx.reply().map(size);
        } else {
            ctx.reply().array(size);
        }
        if (hash == null) {
            return;
        }
        for (Map.Entry<Bytes, byte[]> e : hash.fields().entrySet()) {
            if (fields) {
                ctx.reply().bulk(e.getKey().bytes());
            }
            if (values) {
                ctx.reply().bulk(e.getValue());
            }
        }
    }
}
