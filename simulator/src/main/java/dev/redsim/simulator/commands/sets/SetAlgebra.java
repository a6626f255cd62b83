package dev.redsim.simulator.commands.sets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.EncodingLimits;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.SetValue;

import java.util.Arrays;
import java.util.Comparator;

/** SINTER, SUNION, SDIFF, their STORE forms and SINTERCARD. */
final class SetAlgebra {
    private static final RedisError NUMKEYS = new RedisError("ERR numkeys should be greater than 0");
    private static final RedisError TOO_MANY_KEYS =
            new RedisError("ERR Number of keys can't be greater than number of args");
    private static final RedisError NEGATIVE_LIMIT = new RedisError("ERR LIMIT can't be negative");

    void register(CommandTable t) {
        t.handler("sinter", ctx -> inter(ctx, null));
        t.handler("sinterstore", ctx -> inter(ctx, ctx.key(1)));
        t.handler("sunion", ctx -> unionDiff(ctx, false, false));
        t.handler("sunionstore", ctx -> unionDiff(ctx, false, true));
        t.handler("sdiff", ctx -> unionDiff(ctx, true, false));
        t.handler("sdiffstore", ctx -> unionDiff(ctx, true, true));
        t.handler("sintercard", this::sintercard);
    }

    /** Looks up sets from args[from..to): null for absent keys, WRONGTYPE if any key holds another type. */
    private static SetValue[] lookupSets(CommandContext ctx, int from, int to) {
        Database db = ctx.db();
        SetValue[] sets = new SetValue[to - from];
        for (int i = from; i < to; i++) {
            RedisValue value = db.getForRead(ctx.key(i));
            if (value != null && !(value instanceof SetValue)) {
                throw RedisError.WRONGTYPE;
            }
            sets[i - from] = (SetValue) value;
        }
        return sets;
    }

    private static boolean anyMissing(SetValue[] sets) {
        for (SetValue s : sets) {
            if (s == null) {
                return true;
            }
        }
        return false;
    }

    private void inter(CommandContext ctx, Bytes dst) {
        int first = dst == null ? 1 : 2;
        SetValue[] sets = lookupSets(ctx, first, ctx.argc());
        if (anyMissing(sets)) {
            if (dst == null) {
                ctx.reply().set(0);
            } else {
                store(ctx, dst, new SetValue(), "sinterstore");
            }
            return;
        }
        // Walk the smallest set and probe the others, as Redis does (its reply order is the smallest set's).
        Arrays.sort(sets, Comparator.comparingInt(SetValue::size));
        SetValue result = new SetValue();
        EncodingLimits limits = ctx.engine().config();
        sets[0].forEach(member -> {
            if (inAllOthers(sets, member)) {
                result.add(member, limits);
            }
        });
        if (dst == null) {
            // Not the result's order: the smallest set's iteration order, members kept as they come.
            ctx.reply().set(result.size());
            sets[0].forEach(member -> {
                if (result.contains(member)) {
                    ctx.reply().bulk(member);
                }
            });
            return;
        }
        store(ctx, dst, result, "sinterstore");
    }

    private static boolean inAllOthers(SetValue[] sets, byte[] member) {
        for (int j = 1; j < sets.length; j++) {
            if (sets[j] != sets[0] && !sets[j].contains(member)) {
                return false;
            }
        }
        return true;
    }

    private void unionDiff(CommandContext ctx, boolean diff, boolean storing) {
        int first = storing ? 2 : 1;
        SetValue[] sets = lookupSets(ctx, first, ctx.argc());
        SetValue result = new SetValue();
        EncodingLimits limits = ctx.engine().config();
        if (diff) {
            if (sets[0] != null) {
                sets[0].forEach(member -> {
                    if (!inAny(sets, member)) {
                        result.add(member, limits);
                    }
                });
            }
        } else {
            for (SetValue s : sets) {
                if (s != null) {
                    s.forEach(member -> result.add(member, limits));
                }
            }
        }
        if (!storing) {
            // Redis builds the result as a set and replies in that set's order (numeric for an intset).
            SetCommands.writeMembers(ctx.reply(), result);
            return;
        }
        store(ctx, ctx.key(1), result, diff ? "sdiffstore" : "sunionstore");
    }

    /** True when a later set (not the first) holds the member. */
    private static boolean inAny(SetValue[] sets, byte[] member) {
        for (int j = 1; j < sets.length; j++) {
            if (sets[j] != null && (sets[j] == sets[0] || sets[j].contains(member))) {
                return true;
            }
        }
        return false;
    }

    /** Stores a result, replacing the destination (and its TTL); an empty result deletes it instead. */
    private static void store(CommandContext ctx, Bytes dst, SetValue result, String event) {
        Database db = ctx.db();
        if (result.isEmpty()) {
            if (db.delete(dst)) {
                ctx.signalModified(dst);
                ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", dst);
                ctx.dirty(1);
            }
            ctx.reply().integer(0);
            return;
        }
        db.put(dst, result);
        ctx.signalModified(dst);
        ctx.reply().integer(result.size());
        ctx.notifyEvent(KeyspaceEvents.SET, event, dst);
        ctx.dirty(1);
    }

    private void sintercard(CommandContext ctx) {
        Long numkeys = Numbers.parseLongStrict(ctx.arg(1));
        if (numkeys == null || numkeys < 1) {
            throw NUMKEYS;
        }
        if (numkeys > ctx.argc() - 2) {
            throw TOO_MANY_KEYS;
        }
        int end = 2 + numkeys.intValue();
        long limit = 0;
        for (int i = end; i < ctx.argc(); i++) {
            if (ctx.is(i, "limit") && i + 1 < ctx.argc()) {
                Long parsed = Numbers.parseLongStrict(ctx.arg(++i));
                if (parsed == null || parsed < 0) {
                    throw NEGATIVE_LIMIT;
                }
                limit = parsed;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        SetValue[] sets = lookupSets(ctx, 2, end);
        if (anyMissing(sets)) {
            ctx.reply().integer(0);
            return;
        }
        Arrays.sort(sets, Comparator.comparingInt(SetValue::size));
        long[] count = {0};
        long cap = limit == 0 ? Long.MAX_VALUE : limit;
        sets[0].forEach(member -> {
            if (count[0] < cap && inAllOthers(sets, member)) {
                count[0]++;
            }
        });
        ctx.reply().integer(count[0]);
    }
}
