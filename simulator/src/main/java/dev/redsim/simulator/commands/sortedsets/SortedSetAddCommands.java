package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.SortedSetValue;

/** ZADD and ZINCRBY: Redis runs both through one routine (zaddGenericCommand), and so do we. */
final class SortedSetAddCommands {
    static final RedisError XX_AND_NX = new RedisError("ERR XX and NX options at the same time are not compatible");
    static final RedisError GT_LT_NX =
            new RedisError("ERR GT, LT, and/or NX options at the same time are not compatible");
    static final RedisError INCR_SINGLE_PAIR = new RedisError("ERR INCR option supports a single increment-element pair");
    static final RedisError NAN_RESULT = new RedisError("ERR resulting score is not a number (NaN)");

    /** Parsed options of one call. */
    private static final class Options {
        boolean nx;
        boolean xx;
        boolean gt;
        boolean lt;
        boolean ch;
        boolean incr;
    }

    /** What one member's update did. */
    private enum Outcome { ADDED, UPDATED, UNCHANGED, SKIPPED }

    private SortedSetAddCommands() {
    }

    static void zadd(CommandContext ctx) {
        Options o = new Options();
        int i = 2;
        for (; i < ctx.argc(); i++) {
            if (ctx.is(i, "nx")) {
                o.nx = true;
            } else if (ctx.is(i, "xx")) {
                o.xx = true;
            } else if (ctx.is(i, "ch")) {
                o.ch = true;
            } else if (ctx.is(i, "incr")) {
                o.incr = true;
            } else if (ctx.is(i, "gt")) {
                o.gt = true;
            } else if (ctx.is(i, "lt")) {
                o.lt = true;
            } else {
                break;
            }
        }
        run(ctx, o, i);
    }

    static void zincrby(CommandContext ctx) {
        Options o = new Options();
        o.incr = true;
        run(ctx, o, 2);
    }

    private static void run(CommandContext ctx, Options o, int first) {
        int remaining = ctx.argc() - first;
        if (remaining == 0 || remaining % 2 != 0) {
            throw RedisError.SYNTAX;
        }
        int pairs = remaining / 2;
        if (o.nx && o.xx) {
            throw XX_AND_NX;
        }
        if ((o.gt && o.nx) || (o.lt && o.nx) || (o.gt && o.lt)) {
            throw GT_LT_NX;
        }
        if (o.incr && pairs > 1) {
            throw INCR_SINGLE_PAIR;
        }
        double[] scores = new double[pairs];
        for (int p = 0; p < pairs; p++) {
            Double score = Numbers.parseDouble(ctx.arg(first + 2 * p));
            if (score == null) {
                throw RedisError.NOT_FLOAT;
            }
            scores[p] = score;
        }
        Bytes key = ctx.key(1);
        SortedSetValue zset = SortedSets.write(ctx, key);
        if (zset == null) {
            if (o.xx) {
                replyCounts(ctx, o, 0, 0, null);
                return;
            }
            zset = SortedSetValue.create(SortedSets.limits(ctx), ctx.arg(first + 1));
            ctx.db().put(key, zset);
        }
        long added = 0;
        long updated = 0;
        Double last = null;
        for (int p = 0; p < pairs; p++) {
            byte[] member = ctx.arg(first + 2 * p + 1);
            double[] score = {scores[p]};
            Outcome outcome = apply(ctx, zset, o, Bytes.wrap(member), score);
            if (outcome == Outcome.ADDED) {
                added++;
            } else if (outcome == Outcome.UPDATED) {
                updated++;
            }
            if (outcome != Outcome.SKIPPED) {
                last = score[0];
            }
        }
        if (added + updated > 0) {
            ctx.signalModified(key);
            ctx.notifyEvent(KeyspaceEvents.ZSET, o.incr ? "zincr" : "zadd", key);
            ctx.dirty(added + updated);
        }
        replyCounts(ctx, o, added, updated, last);
    }

    /** Applies one (score, member) under the options; score[0] becomes the member's resulting score. */
    private static Outcome apply(CommandContext ctx, SortedSetValue zset, Options o, Bytes member, double[] score) {
        Double current = zset.score(member);
        if (current == null) {
            if (o.xx) {
                return Outcome.SKIPPED;
            }
            zset.put(member, score[0]);
            zset.updateEncoding(SortedSets.limits(ctx), member.bytes());
            return Outcome.ADDED;
        }
        if (o.nx) {
            return Outcome.SKIPPED;
        }
        double next = score[0];
        if (o.incr) {
            next += current;
            if (Double.isNaN(next)) {
                throw NAN_RESULT;
            }
        }
        if ((o.lt && next >= current) || (o.gt && next <= current)) {
            return Outcome.SKIPPED;
        }
        score[0] = next;
        if (next == current) { // C compares with ==, so -0 equals 0
            return Outcome.UNCHANGED;
        }
        zset.put(member, next);
        return Outcome.UPDATED;
    }

    private static void replyCounts(CommandContext ctx, Options o, long added, long updated, Double incrResult) {
        if (o.incr) {
            if (incrResult == null) {
                ctx.reply().nullBulk();
            } else {
                ctx.reply().doubleValue(incrResult);
            }
        } else {
            ctx.reply().integer(o.ch ? added + updated : added);
        }
    }
}
