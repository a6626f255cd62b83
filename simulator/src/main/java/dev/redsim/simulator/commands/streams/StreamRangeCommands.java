package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.StreamId;
import dev.redsim.simulator.keyspace.StreamValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/** Reading entries by ID: XLEN, XRANGE and XREVRANGE, each O(log N) to find the start plus the entries returned. */
public final class StreamRangeCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("xlen", this::xlen);
        t.handler("xrange", ctx -> range(ctx, false));
        t.handler("xrevrange", ctx -> range(ctx, true));
    }

    private void xlen(CommandContext ctx) {
        StreamValue stream = Streams.read(ctx, ctx.key(1));
        ctx.reply().integer(stream == null ? 0 : stream.length());
    }

    /** XRANGE key start end [COUNT count] / XREVRANGE key end start [COUNT count]. */
    private void range(CommandContext ctx, boolean reverse) {
        StreamId start = StreamIds.intervalBound(ctx, reverse ? 3 : 2, true);
        StreamId end = StreamIds.intervalBound(ctx, reverse ? 2 : 3, false);
        long count = -1;
        for (int i = 4; i < ctx.argc(); i++) {
            if (ctx.is(i, "count") && i + 1 < ctx.argc()) {
                count = Math.max(0, ctx.longArg(++i));
            } else {
                throw RedisError.SYNTAX;
            }
        }
        StreamValue stream = Streams.read(ctx, ctx.key(1));
        if (stream == null) {
            ctx.reply().emptyArray();
            return;
        }
        if (count == 0) {
            ctx.reply().nullArray(); // Redis's answer to COUNT 0
            return;
        }
        replyRange(ctx, stream, start, end, reverse, count < 0 ? Long.MAX_VALUE : count);
    }

    /** Entries from start to end inclusive (walked backwards when reversed), at most {@code count}. */
    static void replyRange(CommandContext ctx, StreamValue stream, StreamId start, StreamId end, boolean reverse,
                           long count) {
        if (start.greaterThan(end)) {
            ctx.reply().emptyArray();
            return;
        }
        NavigableMap<StreamId, byte[][]> range = stream.entries().subMap(start, true, end, true);
        if (reverse) {
            range = range.descendingMap();
        }
        List<Map.Entry<StreamId, byte[][]>> taken = take(range, count);
        ctx.reply().array(taken.size());
        for (Map.Entry<StreamId, byte[][]> entry : taken) {
            StreamReplies.entry(ctx.reply(), entry);
        }
    }

    /** The entries from {@code start} on, at most {@code count} (0: all): what XREAD returns for a stream. */
    static List<Map.Entry<StreamId, byte[][]>> entriesFrom(StreamValue stream, StreamId start, long count) {
        return take(stream.entries().tailMap(start, true), count == 0 ? Long.MAX_VALUE : count);
    }

    /** The first {@code count} entries of a range, taken before replying: a sub-map's size is counted by walking it. */
    private static List<Map.Entry<StreamId, byte[][]>> take(NavigableMap<StreamId, byte[][]> range, long count) {
        List<Map.Entry<StreamId, byte[][]>> taken = new ArrayList<>();
        for (Map.Entry<StreamId, byte[][]> entry : range.entrySet()) {
            if (taken.size() == count) {
                break;
            }
            taken.add(entry);
        }
        return taken;
    }
}
