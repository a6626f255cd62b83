package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.PendingEntry;
import dev.redsim.simulator.keyspace.RaxMap;
import dev.redsim.simulator.keyspace.StreamConsumer;
import dev.redsim.simulator.keyspace.StreamGroup;
import dev.redsim.simulator.keyspace.StreamId;
import dev.redsim.simulator.keyspace.StreamValue;

import java.util.Map;

/** The pending entries lists of groups: XACK takes entries off, XPENDING shows them (summary or entry by entry). */
public final class StreamPendingCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("xack", this::xack);
        t.handler("xpending", this::xpending);
    }

    // ---- XACK key group id [id ...] ----

    private void xack(CommandContext ctx) {
        StreamValue stream = Streams.read(ctx, ctx.key(1));
        StreamGroup group = stream == null ? null : stream.group(ctx.key(2));
        if (group == null) {
            ctx.reply().integer(0);
            return;
        }
        // every ID is checked before any is acknowledged
        StreamId[] ids = new StreamId[ctx.argc() - 3];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = StreamIds.strict(ctx, i + 3);
        }
        long acknowledged = 0;
        for (StreamId id : ids) {
            PendingEntry pending = group.pending().remove(id);
            if (pending != null) {
                pending.consumer().pending().remove(id);
                acknowledged++;
            }
        }
        ctx.dirty(acknowledged);
        ctx.reply().integer(acknowledged);
    }

    // ---- XPENDING key group [[IDLE min-idle-time] start end count [consumer]] ----

    private void xpending(CommandContext ctx) {
        int argc = ctx.argc();
        if (argc != 3 && (argc < 6 || argc > 9)) {
            throw RedisError.SYNTAX;
        }
        long minIdle = 0;
        long count = 0;
        StreamId start = null;
        StreamId end = null;
        Bytes consumerName = null;
        if (argc >= 6) {
            int from = 3;
            if (ctx.is(3, "idle")) {
                minIdle = ctx.longArg(4);
                if (argc < 8) {
                    throw RedisError.SYNTAX;
                }
                from += 2;
            }
            count = Math.max(0, ctx.longArg(from + 2));
            start = StreamIds.intervalBound(ctx, from, true);
            end = StreamIds.intervalBound(ctx, from + 1, false);
            if (from + 3 < argc) {
                consumerName = ctx.key(from + 3);
            }
        }
        Bytes key = ctx.key(1);
        StreamValue stream = Streams.read(ctx, key);
        StreamGroup group = Streams.requireGroup(stream, key, ctx.key(2), "");
        if (argc == 3) {
            summary(ctx, group);
            return;
        }
        RaxMap<PendingEntry> pel = group.pending();
        if (consumerName != null) {
            StreamConsumer consumer = group.consumer(consumerName);
            if (consumer == null) {
                ctx.reply().emptyArray();
                return;
            }
            pel = consumer.pending();
        }
        entries(ctx, pel, start, end, count, minIdle);
    }

    /** [count, first ID, last ID, [[consumer, its count], ...]] (consumers with nothing pending left out). */
    private static void summary(CommandContext ctx, StreamGroup group) {
        ctx.reply().array(4);
        ctx.reply().integer(group.pending().size());
        if (group.pending().isEmpty()) {
            ctx.reply().nullBulk();
            ctx.reply().nullBulk();
            ctx.reply().nullArray();
            return;
        }
        StreamReplies.id(ctx.reply(), group.pending().view().firstKey());
        StreamReplies.id(ctx.reply(), group.pending().view().lastKey());
        int holding = 0;
        for (StreamConsumer consumer : group.consumers().values()) {
            if (!consumer.pending().isEmpty()) {
                holding++;
            }
        }
        ctx.reply().array(holding);
        for (StreamConsumer consumer : group.consumers().values()) {
            if (!consumer.pending().isEmpty()) {
                ctx.reply().array(2);
                ctx.reply().bulk(consumer.name().bytes());
                ctx.reply().bulk(consumer.pending().size());
            }
        }
    }

    /** [[id, consumer, idle ms, deliveries], ...] from start to end, at most count, idle at least minIdle. */
    private static void entries(CommandContext ctx, RaxMap<PendingEntry> pel, StreamId start, StreamId end, long count,
                                long minIdle) {
        long now = ctx.now();
        java.util.List<Map.Entry<StreamId, PendingEntry>> shown = new java.util.ArrayList<>();
        if (!start.greaterThan(end)) {
            for (Map.Entry<StreamId, PendingEntry> e : pel.view().subMap(start, true, end, true).entrySet()) {
                if (shown.size() == count) {
                    break;
                }
                if (minIdle != 0 && now - e.getValue().deliveredAt() < minIdle) {
                    continue;
                }
                shown.add(e);
            }
        }
        ctx.reply().array(shown.size());
        for (Map.Entry<StreamId, PendingEntry> e : shown) {
            PendingEntry pending = e.getValue();
            ctx.reply().array(4);
            StreamReplies.id(ctx.reply(), e.getKey());
            ctx.reply().bulk(pending.consumer().name().bytes());
            ctx.reply().integer(Math.max(0, now - pending.deliveredAt()));
            ctx.reply().integer(pending.deliveries());
        }
    }
}
