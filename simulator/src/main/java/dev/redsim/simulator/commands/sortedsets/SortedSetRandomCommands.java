package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** ZRANDMEMBER: random picks by rank, O(log n) each, distinct for a positive count, repeated for a negative one. */
final class SortedSetRandomCommands {
    private static final RedisError COUNT_RANGE = new RedisError(
            "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807");
    private static final RedisError OUT_OF_RANGE = new RedisError("ERR value is out of range");

    private SortedSetRandomCommands() {
    }

    static void zrandmember(CommandContext ctx) {
        if (ctx.argc() == 2) {
            SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
            if (zset == null) {
                ctx.reply().nullBulk();
                return;
            }
            ctx.reply().bulk(pick(zset).member().bytes());
            return;
        }
        Long count = Numbers.parseLongStrict(ctx.arg(2));
        if (count == null) {
            throw RedisError.NOT_INTEGER;
        }
        if (count == Long.MIN_VALUE) {
            throw COUNT_RANGE;
        }
        boolean withScores = false;
        if (ctx.argc() > 4 || (ctx.argc() == 4 && !ctx.is(3, "withscores"))) {
            throw RedisError.SYNTAX;
        } else if (ctx.argc() == 4) {
            withScores = true;
            if (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2) {
                throw OUT_OF_RANGE;
            }
        }
        SortedSetValue zset = SortedSets.read(ctx, ctx.key(1));
        if (zset == null || count == 0) {
            ctx.reply().emptyArray();
            return;
        }
        List<ZSkipList.Node> picks = count < 0 ? withRepeats(zset, -count) : distinct(zset, count);
        SortedSets.replyEntries(ctx.reply(), picks, withScores);
    }

    private static ZSkipList.Node pick(SortedSetValue zset) {
        return zset.byRank(ThreadLocalRandom.current().nextInt(zset.size()));
    }

    private static List<ZSkipList.Node> withRepeats(SortedSetValue zset, long count) {
        List<ZSkipList.Node> picks = new ArrayList<>((int) Math.min(count, 1 << 20));
        for (long i = 0; i < count; i++) {
            picks.add(pick(zset));
        }
        return picks;
    }

    /**
     * Distinct members: all of them when count covers the set; a shuffled walk when count is a third of the set or
     * more (random ranks would need ever more tries to find one not drawn yet, as a coupon collector does: about
     * size x ln(size) for a count near the size); else random ranks without repeats, O(count log n). Redis's
     * zrandmemberWithCountCommand splits its cases at the same third.
     */
    private static List<ZSkipList.Node> distinct(SortedSetValue zset, long count) {
        int size = zset.size();
        List<ZSkipList.Node> all = null;
        if (count >= size || count * 3 > size) {
            all = new ArrayList<>(size);
            for (ZSkipList.Node n = zset.first(); n != null; n = n.next()) {
                all.add(n);
            }
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (count >= size) {
            return all;
        }
        if (all != null) {
            // partial Fisher-Yates: the first count places end up a uniform distinct sample
            for (int i = 0; i < count; i++) {
                int j = i + random.nextInt(size - i);
                ZSkipList.Node swap = all.get(i);
                all.set(i, all.get(j));
                all.set(j, swap);
            }
            return all.subList(0, (int) count);
        }
        HashSet<Integer> ranks = new HashSet<>();
        List<ZSkipList.Node> picks = new ArrayList<>((int) count);
        while (picks.size() < count) {
            int rank = random.nextInt(size);
            if (ranks.add(rank)) {
                picks.add(zset.byRank(rank));
            }
        }
        return picks;
    }
}
