package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.protocol.Reply;

/** Sorted set commands about single members: ZREM, ZCARD, ZSCORE, ZMSCORE, ZRANK, ZREVRANK. */
final class SortedSetMemberCommands {
    private SortedSetMemberCommands() {
    }

    static void zrem(CommandContext ctx) {
        Bytes key = ctx.key(1);
        SortedSetValue zset = SortedSets.write(ctx, key);
        if (zset == null) {
            ctx.reply().integer(0);
            return;
        }
        long removed = 0;
        for (int i = 2; i < ctx.argc() && !zset.isEmpty(); i++) {
            if (zset.remove(ctx.key(i))) {
                removed++;
            }
        }
        if (removed > 0) {
            SortedSets.changed(ctx, key, zset, "zrem", removed);
        }
        ctx.reply().integer(removed);
    }

    static void zcard(CommandContext ctx) {
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        ctx.reply().integer(zset == null ? 0 : zset.size());
    }

    static void zscore(CommandContext ctx) {
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        replyScore(ctx.reply(), zset == null ? null : zset.score(ctx.key(2)));
    }

    static void zmscore(CommandContext ctx) {
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        ctx.reply().array(ctx.argc() - 2);
        for (int i = 2; i < ctx.argc(); i++) {
            replyScore(ctx.reply(), zset == null ? null : zset.score(ctx.key(i)));
        }
    }

    private static void replyScore(Reply reply, Double score) {
        if (score == null) {
            reply.nullBulk();
        } else {
            reply.doubleValue(score);
        }
    }

    static void zrank(CommandContext ctx, boolean reverse) {
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        long rank = zset == null ? -1 : zset.rank(ctx.key(2));
        if (rank < 0) {
            ctx.reply().nullBulk();
            return;
        }
        ctx.reply().integer(reverse ? zset.size() - 1 - rank : rank);
    }
}
