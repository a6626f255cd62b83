package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * ZRANGE in all its forms (ZRANGE with BYSCORE/BYLEX/REV/LIMIT, the legacy ZRANGEBYSCORE, ZREVRANGEBYSCORE,
 * ZRANGEBYLEX, ZREVRANGEBYLEX, ZREVRANGE) and ZRANGESTORE: one parser and one range walk, as Redis's
 * zrangeGenericCommand. Offsets jump by rank, so LIMIT costs O(log n) plus the elements returned.
 */
final class SortedSetRangeCommands {
    static final RedisError LIMIT_NEEDS_BY =
            new RedisError("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
    static final RedisError WITHSCORES_BYLEX =
            new RedisError("ERR syntax error, WITHSCORES not supported in combination with BYLEX");

    /** How min and max are read. */
    enum By { RANK, SCORE, LEX }

    /** A parsed request; limit -1 means no limit. */
    record Request(By by, boolean reverse, boolean withScores, long offset, long limit, byte[] min, byte[] max) {
    }

    private SortedSetRangeCommands() {
    }

    /** ZRANGE key min max [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES]. */
    static void zrange(CommandContext ctx) {
        Request request = parse(ctx, 1, null, null, false);
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        reply(ctx, request, zset);
    }

    /** The legacy forms, whose range kind and direction are fixed by the command's name. */
    static void legacy(CommandContext ctx, By by, boolean reverse) {
        Request request = parse(ctx, 1, by, reverse, false);
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        reply(ctx, request, zset);
    }

    /** ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]. */
    static void zrangestore(CommandContext ctx) {
        Request request = parse(ctx, 2, null, null, true);
        SortedSetValue source = SortedSets.write(ctx, ctx.key(2));
        SortedSetValue result = new SortedSetValue();
        if (source != null) {
            for (ZSkipList.Node n : select(source, request)) {
                result.put(n.member(), n.score());
            }
        }
        SortedSets.storeResult(ctx, ctx.key(1), result, "zrangestore");
    }

    private static void reply(CommandContext ctx, Request request, SortedSetValue zset) {
        if (zset == null) {
            ctx.reply().emptyArray();
            return;
        }
        SortedSets.replyEntries(ctx.reply(), select(zset, request), request.withScores());
    }

    static Request parse(CommandContext ctx, int keyIndex, By fixedBy, Boolean fixedReverse, boolean store) {
        By by = fixedBy;
        Boolean reverse = fixedReverse;
        boolean withScores = false;
        long offset = 0;
        long limit = -1;
        boolean limitGiven = false;
        for (int j = keyIndex + 3; j < ctx.argc(); j++) {
            int left = ctx.argc() - j - 1;
            if (!store && ctx.is(j, "withscores")) {
                withScores = true;
            } else if (ctx.is(j, "limit") && left >= 2) {
                offset = ctx.longArg(j + 1);
                limit = ctx.longArg(j + 2);
                limitGiven = true;
                j += 2;
            } else if (reverse == null && ctx.is(j, "rev")) {
                reverse = true;
            } else if (by == null && ctx.is(j, "bylex")) {
                by = By.LEX;
            } else if (by == null && ctx.is(j, "byscore")) {
                by = By.SCORE;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        by = by == null ? By.RANK : by;
        boolean rev = reverse != null && reverse;
        if (limitGiven && by == By.RANK) {
            throw LIMIT_NEEDS_BY;
        }
        if (withScores && by == By.LEX) {
            throw WITHSCORES_BYLEX;
        }
        byte[] min = ctx.arg(keyIndex + 1);
        byte[] max = ctx.arg(keyIndex + 2);
        if (rev && by != By.RANK) {
            // The reverse forms take the range as max then min.
            byte[] swap = min;
            min = max;
            max = swap;
        }
        checkBounds(by, min, max);
        return new Request(by, rev, withScores, offset, limit, min, max);
    }

    private static void checkBounds(By by, byte[] min, byte[] max) {
        switch (by) {
            case RANK -> {
                if (Numbers.parseLongStrict(min) == null || Numbers.parseLongStrict(max) == null) {
                    throw RedisError.NOT_INTEGER;
                }
            }
            case SCORE -> SortedSetRanges.scoreRange(min, max);
            case LEX -> SortedSetRanges.lexRange(min, max);
        }
    }

    /** The entries a request selects, in reply order. */
    static List<ZSkipList.Node> select(SortedSetValue zset, Request request) {
        return switch (request.by()) {
            case RANK -> byRank(zset, Numbers.parseLongStrict(request.min()), Numbers.parseLongStrict(request.max()),
                    request.reverse());
            case SCORE -> SortedSetRanges.walk(zset, SortedSetRanges.scoreRange(request.min(), request.max()), request.reverse(),
                    request.offset(), request.limit());
            case LEX -> SortedSetRanges.walk(zset, SortedSetRanges.lexRange(request.min(), request.max()), request.reverse(),
                    request.offset(), request.limit());
        };
    }

    /** Entries from start to end (inclusive, negative from the end), counted from the high end when reverse. */
    static List<ZSkipList.Node> byRank(SortedSetValue zset, long start, long end, boolean reverse) {
        long[] span = SortedSetRanges.clampRanks(start, end, zset.size());
        if (span == null) {
            return Collections.emptyList();
        }
        int n = (int) (span[1] - span[0] + 1);
        List<ZSkipList.Node> nodes = new ArrayList<>(n);
        ZSkipList.Node node = zset.byRank(reverse ? zset.size() - 1 - span[0] : span[0]);
        for (int i = 0; i < n && node != null; i++) {
            nodes.add(node);
            node = reverse ? node.previous() : node.next();
        }
        return nodes;
    }

    /** ZCOUNT key min max. */
    static void zcount(CommandContext ctx) {
        var range = SortedSetRanges.scoreRange(ctx.arg(2), ctx.arg(3));
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        ctx.reply().integer(zset == null ? 0 : zset.count(range));
    }

    /** ZLEXCOUNT key min max. */
    static void zlexcount(CommandContext ctx) {
        var range = SortedSetRanges.lexRange(ctx.arg(2), ctx.arg(3));
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        ctx.reply().integer(zset == null ? 0 : zset.count(range));
    }

    /** ZREMRANGEBYRANK / BYSCORE / BYLEX key min max. */
    static void zremrange(CommandContext ctx, By by) {
        byte[] min = ctx.arg(2);
        byte[] max = ctx.arg(3);
        if (by == By.RANK) {
            ctx.longArg(2);
            ctx.longArg(3);
        } else {
            checkBounds(by, min, max);
        }
        Bytes key = ctx.key(1);
        SortedSetValue zset = SortedSets.write(ctx, key);
        if (zset == null) {
            ctx.reply().integer(0);
            return;
        }
        List<ZSkipList.Node> doomed = select(zset, new Request(by, false, false, 0, -1, min, max));
        for (ZSkipList.Node n : doomed) {
            zset.remove(n);
        }
        if (!doomed.isEmpty()) {
            String event = switch (by) {
                case RANK -> "zrembyrank";
                case SCORE -> "zrembyscore";
                case LEX -> "zrembylex";
            };
            SortedSets.changed(ctx, key, zset, event, doomed.size());
        }
        ctx.reply().integer(doomed.size());
    }
}
