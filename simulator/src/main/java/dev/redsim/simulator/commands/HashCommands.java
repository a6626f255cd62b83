package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.HashValue;

import java.util.Map;

import static dev.redsim.simulator.command.CommandSpec.command;

/**
 * The hash commands of t_hash.c that read and write fields; counters are in {@link HashCounterCommands},
 * HRANDFIELD and HSCAN in {@link HashSamplingCommands}.
 */
public final class HashCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.add(command("hset", -4).flags("write denyoom fast").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("Set fields of a hash to values").handler(ctx -> hset(ctx, false)).build());
        t.add(command("hmset", -4).flags("write denyoom fast").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("Set fields of a hash to values (older form of HSET, replies OK)")
                .handler(ctx -> hset(ctx, true)).build());
        t.add(command("hsetnx", 4).flags("write denyoom fast").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("Set a hash field only if it is not there yet").handler(this::hsetnx).build());
        t.add(command("hget", 3).flags("readonly fast").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("The value of a hash field").handler(this::hget).build());
        t.add(command("hmget", -3).flags("readonly fast").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("The values of several hash fields").handler(this::hmget).build());
        t.add(command("hdel", -3).flags("write fast").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("Remove fields from a hash").handler(this::hdel).build());
        t.add(command("hexists", 3).flags("readonly fast").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("Whether a hash has a field").handler(this::hexists).build());
        t.add(command("hlen", 2).flags("readonly fast").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("Number of fields in a hash").handler(this::hlen).build());
        t.add(command("hstrlen", 3).flags("readonly fast").keys(1, 1, 1).group("hash").since("3.2.0")
                .summary("Length of the value of a hash field").handler(this::hstrlen).build());
        t.add(command("hkeys", 2).flags("readonly").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("All field names of a hash").handler(ctx -> all(ctx, true, false)).build());
        t.add(command("hvals", 2).flags("readonly").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("All values of a hash").handler(ctx -> all(ctx, false, true)).build());
        t.add(command("hgetall", 2).flags("readonly").keys(1, 1, 1).group("hash").since("2.0.0")
                .summary("All fields and values of a hash").handler(ctx -> all(ctx, true, true)).build());
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
