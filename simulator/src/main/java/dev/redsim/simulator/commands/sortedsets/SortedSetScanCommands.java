package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.protocol.DoubleFormat;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.util.GlobMatcher;
import dev.redsim.simulator.util.ScanCursor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * ZSCAN. A listpack-sized set comes back whole with cursor 0 in one call, as Redis does; a bigger one is paged
 * with {@link ScanCursor}. Scores are bulk strings in both protocols (Redis formats them as text here).
 */
final class SortedSetScanCommands {
    private static final int DEFAULT_COUNT = 10;

    private SortedSetScanCommands() {
    }

    static void zscan(CommandContext ctx) {
        long cursor = ScanCursor.parse(ctx.arg(2));
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        if (zset == null) {
            Reply reply = ctx.reply();
            reply.array(2);
            reply.bulk("0");
            reply.emptyArray();
            return;
        }
        long count = DEFAULT_COUNT;
        byte[] pattern = null;
        for (int i = 3; i < ctx.argc(); i += 2) {
            if (ctx.is(i, "count") && i + 1 < ctx.argc()) {
                count = ctx.longArg(i + 1);
                if (count < 1) {
                    throw RedisError.SYNTAX;
                }
            } else if (ctx.is(i, "match") && i + 1 < ctx.argc()) {
                pattern = ctx.arg(i + 1);
            } else {
                throw RedisError.SYNTAX;
            }
        }
        List<Bytes> members;
        long next;
        if (zset.isListpack()) {
            members = new ArrayList<>(zset.size());
            for (var n = zset.first(); n != null; n = n.next()) {
                members.add(n.member());
            }
            next = 0;
        } else {
            // scanGenericCommand: bucket after bucket until COUNT members came, or ten times COUNT buckets passed
            members = new ArrayList<>();
            long maxIterations = count > Long.MAX_VALUE / 10 ? Long.MAX_VALUE : count * 10;
            next = cursor;
            do {
                next = zset.scanStep(next, members::add);
            } while (next != 0 && maxIterations-- > 0 && members.size() < count);
        }
        replyPage(ctx, zset, members, next, pattern);
    }

    private static void replyPage(CommandContext ctx, SortedSetValue zset, List<Bytes> members, long next,
                                  byte[] pattern) {
        List<Bytes> kept = new ArrayList<>(members.size());
        for (Bytes m : members) {
            if (pattern == null || GlobMatcher.matches(pattern, m.bytes(), false)) {
                kept.add(m);
            }
        }
        Reply reply = ctx.reply();
        reply.array(2);
        reply.bulk(Long.toUnsignedString(next));
        reply.array(kept.size() * 2);
        for (Bytes m : kept) {
            reply.bulk(m.bytes());
            reply.bulk(DoubleFormat.reply(zset.score(m)).getBytes(StandardCharsets.US_ASCII));
        }
    }
}
