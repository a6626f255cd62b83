package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.PendingEntry;
import dev.redsim.simulator.keyspace.StreamConsumer;
import dev.redsim.simulator.keyspace.StreamGroup;
import dev.redsim.simulator.keyspace.StreamId;
import dev.redsim.simulator.keyspace.StreamValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Taking pending entries over: XCLAIM (named IDs) and XAUTOCLAIM (a scan of the group's pending list from a cursor).
 * An entry deleted from the stream meanwhile leaves the pending lists instead of being claimed, as in Redis 7.0.
 */
public final class StreamClaimCommands implements CommandFamily {
    /** XAUTOCLAIM looks at no more than COUNT times this many pending entries per call. */
    private static final long ATTEMPTS_FACTOR = 10;

    @Override
    public void register(CommandTable t) {
        t.handler("xclaim", this::xclaim);
        t.handler("xautoclaim", this::xautoclaim);
    }

    /** What one claim changes and replies (the entry, or its ID alone with JUSTID). */
    private record Claimed(StreamId id, byte[][] fields) {
    }

    // ---- XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME ms] [RETRYCOUNT n] [FORCE] [JUSTID] [LASTID id] ----

    private void xclaim(CommandContext ctx) {
        Bytes key = ctx.key(1);
        StreamValue stream = Streams.read(ctx, key);
        StreamGroup group = Streams.requireGroup(stream, key, ctx.key(2), "");
        long minIdle = Math.max(0, ctx.longArg(4, new RedisError("ERR Invalid min-idle-time argument for XCLAIM")));
        List<StreamId> ids = new ArrayList<>();
        int j = 5;
        for (; j < ctx.argc(); j++) {
            StreamId id = StreamIds.strictOrNull(ctx.arg(j));
            if (id == null) {
                break;
            }
            ids.add(id);
        }
        ctx.preventPropagation(); // each claim goes to the replicas as an XCLAIM of its own, below
        long now = ctx.now();
        long deliveryTime = -1;
        long retryCount = -1;
        boolean force = false;
        boolean justId = false;
        StreamId lastId = StreamId.MIN;
        for (; j < ctx.argc(); j++) {
            boolean more = j < ctx.argc() - 1;
            if (ctx.is(j, "force")) {
                force = true;
            } else if (ctx.is(j, "justid")) {
                justId = true;
            } else if (ctx.is(j, "idle") && more) {
                deliveryTime = now - ctx.longArg(++j, new RedisError("ERR Invalid IDLE option argument for XCLAIM"));
            } else if (ctx.is(j, "time") && more) {
                deliveryTime = ctx.longArg(++j, new RedisError("ERR Invalid TIME option argument for XCLAIM"));
            } else if (ctx.is(j, "retrycount") && more) {
                retryCount = ctx.longArg(++j, new RedisError("ERR Invalid RETRYCOUNT option argument for XCLAIM"));
            } else if (ctx.is(j, "lastid") && more) {
                lastId = StreamIds.strict(ctx, ++j);
            } else {
                throw new RedisError("ERR Unrecognized XCLAIM option '" + ctx.text(j) + "'");
            }
        }
        boolean propagateLastId = false;
        if (lastId.greaterThan(group.lastId())) {
            group.lastId(lastId);
            propagateLastId = true;
        }
        byte[] groupName = ctx.arg(2);
        if (deliveryTime == -1 || deliveryTime < 0 || deliveryTime > now) {
            // a time in the future or before the epoch is taken as now, as Redis does rather than fail
            deliveryTime = now;
        }
        Bytes name = ctx.key(3);
        StreamConsumer consumer = null;
        List<Claimed> claimed = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            StreamId id = ids.get(i);
            byte[] idArg = ctx.arg(5 + i); // propagated as the caller wrote it
            PendingEntry pending = group.pending().get(id);
            byte[][] fields = stream.entries().get(id);
            if (fields == null) {
                if (pending != null) {
                    // the replica drops it too: its XCLAIM finds no entry and forgets the pending one
                    GroupPropagation.claim(ctx, ctx.arg(1), groupName, group.lastId().bytes(), idArg, pending);
                    propagateLastId = false;
                    forget(group, id, pending);
                    ctx.dirty(1);
                }
                continue;
            }
            if (force && pending == null) {
                pending = new PendingEntry(null, now, 1); // counted once more below, as Redis counts it
                group.pending().put(id, pending);
            }
            if (pending == null) {
                continue;
            }
            if (pending.consumer() != null && minIdle > 0 && now - pending.deliveredAt() < minIdle) {
                continue;
            }
            if (consumer == null) {
                consumer = consumer(ctx, group, name, key, now);
            }
            if (retryCount >= 0) {
                pending.deliveries(retryCount);
            } else if (!justId) {
                pending.deliveries(pending.deliveries() + 1);
            }
            pending.deliveredAt(deliveryTime);
            moveTo(consumer, id, pending);
            claimed.add(new Claimed(id, fields));
            GroupPropagation.claim(ctx, ctx.arg(1), groupName, group.lastId().bytes(), idArg, pending);
            propagateLastId = false; // the XCLAIM carries it
            ctx.dirty(1);
        }
        if (propagateLastId) {
            GroupPropagation.lastId(ctx, ctx.arg(1), groupName, group);
            ctx.dirty(1);
        }
        replyClaimed(ctx, claimed, justId);
    }

    // ---- XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID] ----

    private void xautoclaim(CommandContext ctx) {
        long minIdle = Math.max(0, ctx.longArg(4, new RedisError("ERR Invalid min-idle-time argument for XAUTOCLAIM")));
        StreamId start = StreamIds.intervalBound(ctx, 5, true);
        long count = 100;
        boolean justId = false;
        for (int j = 6; j < ctx.argc(); j++) {
            if (ctx.is(j, "count") && j < ctx.argc() - 1) {
                RedisError range = new RedisError("ERR COUNT must be > 0");
                count = ctx.longArg(++j, range);
                if (count < 1 || count > Long.MAX_VALUE / 16) {
                    throw range;
                }
            } else if (ctx.is(j, "justid")) {
                justId = true;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        Bytes key = ctx.key(1);
        StreamValue stream = Streams.read(ctx, key);
        StreamGroup group = Streams.requireGroup(stream, key, ctx.key(2), "");
        ctx.preventPropagation(); // each claim (or dropped entry) goes to the replicas as an XCLAIM, below
        long attempts = count * ATTEMPTS_FACTOR;
        long now = ctx.now();
        Bytes name = ctx.key(3);
        StreamConsumer consumer = null;
        List<Claimed> claimed = new ArrayList<>();
        List<StreamId> deleted = new ArrayList<>();
        StreamId cursor = start;
        Map.Entry<StreamId, PendingEntry> next;
        while (true) {
            Map.Entry<StreamId, PendingEntry> candidate = cursor == null ? null : group.pending().view().ceilingEntry(cursor);
            if (attempts-- == 0 || count == 0 || candidate == null) {
                next = candidate;
                break;
            }
            StreamId id = candidate.getKey();
            PendingEntry pending = candidate.getValue();
            cursor = id.next();
            byte[][] fields = stream.entries().get(id);
            if (fields == null) {
                GroupPropagation.claim(ctx, ctx.arg(1), ctx.arg(2), group.lastId().bytes(), id.bytes(), pending);
                forget(group, id, pending);
                deleted.add(id);
                count--;
                ctx.dirty(1);
                continue;
            }
            if (minIdle > 0 && now - pending.deliveredAt() < minIdle) {
                continue;
            }
            if (consumer == null) {
                consumer = consumer(ctx, group, name, key, now);
            }
            pending.deliveredAt(now);
            if (!justId) {
                pending.deliveries(pending.deliveries() + 1);
            }
            moveTo(consumer, id, pending);
            claimed.add(new Claimed(id, fields));
            GroupPropagation.claim(ctx, ctx.arg(1), ctx.arg(2), group.lastId().bytes(), id.bytes(), pending);
            count--;
            ctx.dirty(1);
        }
        ctx.reply().array(3);
        StreamReplies.id(ctx.reply(), next == null ? StreamId.MIN : next.getKey());
        replyClaimed(ctx, claimed, justId);
        ctx.reply().array(deleted.size());
        for (StreamId id : deleted) {
            StreamReplies.id(ctx.reply(), id);
        }
    }

    // ---- shared ----

    private static StreamConsumer consumer(CommandContext ctx, StreamGroup group, Bytes name, Bytes key, long now) {
        return GroupReads.consumer(group, name, now, () -> {
            ctx.notifyEvent(KeyspaceEvents.STREAM, "xgroup-createconsumer", key);
            ctx.dirty(1);
        });
    }

    /** The pending entry changes hands (it may have had none: a FORCE claim). */
    private static void moveTo(StreamConsumer consumer, StreamId id, PendingEntry pending) {
        if (pending.consumer() == consumer) {
            return;
        }
        if (pending.consumer() != null) {
            pending.consumer().pending().remove(id);
        }
        consumer.pending().put(id, pending);
        pending.consumer(consumer);
    }

    /** An entry no longer in the stream leaves both pending lists. */
    private static void forget(StreamGroup group, StreamId id, PendingEntry pending) {
        group.pending().remove(id);
        if (pending.consumer() != null) {
            pending.consumer().pending().remove(id);
        }
    }

    private static void replyClaimed(CommandContext ctx, List<Claimed> claimed, boolean justId) {
        ctx.reply().array(claimed.size());
        for (Claimed one : claimed) {
            if (justId) {
                StreamReplies.id(ctx.reply(), one.id());
            } else {
                StreamReplies.entry(ctx.reply(), one.id(), one.fields());
            }
        }
    }
}
