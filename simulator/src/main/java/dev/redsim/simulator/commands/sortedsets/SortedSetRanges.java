package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.LexRange;
import dev.redsim.simulator.keyspace.ScoreRange;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Range parsing with Redis's error texts, and the walk over a score or lex range with LIMIT. */
final class SortedSetRanges {
    static final RedisError NOT_FLOAT_RANGE = new RedisError("ERR min or max is not a float");
    static final RedisError NOT_LEX_RANGE = new RedisError("ERR min or max not valid string range item");

    private SortedSetRanges() {
    }

    static ScoreRange scoreRange(byte[] min, byte[] max) {
        ScoreRange range = ScoreRange.parse(min, max);
        if (range == null) {
            throw NOT_FLOAT_RANGE;
        }
        return range;
    }

    static LexRange lexRange(byte[] min, byte[] max) {
        LexRange range = LexRange.parse(min, max);
        if (range == null) {
            throw NOT_LEX_RANGE;
        }
        return range;
    }

    /**
     * Clamps a start/end rank pair as Redis does (negative counts from the end); null when nothing is selected,
     * else {start, end} within [0, size).
     */
    static long[] clampRanks(long start, long end, long size) {
        if (start < 0) {
            start += size;
        }
        if (end < 0) {
            end += size;
        }
        if (start < 0) {
            start = 0;
        }
        if (start > end || start >= size) {
            return null;
        }
        if (end >= size) {
            end = size - 1;
        }
        return new long[] {start, end};
    }

    /**
     * The entries of a range, ascending or descending, after skipping {@code offset} (a negative offset selects
     * nothing, as in Redis) and taking at most {@code limit} (negative: all).
     */
    static List<ZSkipList.Node> walk(SortedSetValue zset, ZSkipList.Range range, boolean reverse, long offset,
                                     long limit) {
        if (offset < 0 || limit == 0) {
            return Collections.emptyList();
        }
        ZSkipList.Node node = reverse ? zset.lastIn(range) : zset.firstIn(range);
        if (node == null) {
            return Collections.emptyList();
        }
        if (offset > 0) {
            long rank = zset.rank(node) + (reverse ? -offset : offset);
            if (rank < 0 || rank >= zset.size()) {
                return Collections.emptyList();
            }
            node = zset.byRank(rank);
        }
        List<ZSkipList.Node> nodes = new ArrayList<>();
        while (node != null && (limit < 0 || nodes.size() < limit)) {
            if (reverse ? !range.reachedMin(node) : !range.withinMax(node)) {
                break;
            }
            nodes.add(node);
            node = reverse ? node.previous() : node.next();
        }
        return nodes;
    }
}
