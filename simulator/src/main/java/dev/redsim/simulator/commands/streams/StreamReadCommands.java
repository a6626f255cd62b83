package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.StreamConsumer;
import dev.redsim.simulator.keyspace.StreamGroup;
import dev.redsim.simulator.keyspace.StreamId;
import dev.redsim.simulator.keyspace.StreamValue;
import dev.redsim.simulator.protocol.Reply;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * XREAD and XREADGROUP (xreadCommand): every key is checked (type, group, ID) before anything is read; then each
 * stream with something past its ID answers at once, in argument order. When none has and BLOCK was given, the
 * client waits on all the keys (first blocked, first served) until an XADD gives one of them an entry past its ID,
 * its group goes (XGROUP DESTROY), its stream goes (deleted or overwritten), the timeout passes on the simulator's
 * clock, or CLIENT UNBLOCK. Inside MULTI a wait answers as a timeout at once; scripts may not pass BLOCK at all.
 */
public final class StreamReadCommands implements CommandFamily {
    /** ">" in XREADGROUP: the entries never delivered to the group. */
    private static final StreamId NEW_ENTRIES = StreamId.MAX;
    /** XREAD_BLOCKED_DEFAULT_COUNT: a blocked reader without COUNT is served at most this many entries. */
    private static final long BLOCKED_DEFAULT_COUNT = 1000;
    private static final RedisError DOLLAR_IN_GROUP = new RedisError("ERR The $ ID is meaningless in the context of "
            + "XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID "
            + "to get new messages. The $ ID would just return an empty result set.");
    private static final RedisError GREATER_IN_XREAD = new RedisError("ERR The > ID can be specified only when "
            + "calling XREADGROUP using the GROUP <group> <consumer> option.");
    private static final RedisError GROUP_GONE =
            new RedisError("NOGROUP the consumer group this client was blocked on no longer exists");
    private static final RedisError STREAM_GONE = new RedisError("UNBLOCKED the stream key no longer exists");

    @Override
    public void register(CommandTable t) {
        t.handler("xread", ctx -> read(ctx, false));
        t.handler("xreadgroup", ctx -> read(ctx, true));
    }

    /** One key's answer: the key and the entries for it (null fields: a pending entry no longer in the stream). */
    private record Served(Bytes key, List<Map.Entry<StreamId, byte[][]>> entries) {
    }

    private void read(CommandContext ctx, boolean readGroup) {
        if (readGroup) {
            ctx.preventPropagation(); // what it changed goes as XCLAIM / XGROUP commands, see propagateDelivery
        }
        StreamReadRequest request = StreamReadRequest.parse(ctx, readGroup);
        StreamId[] ids = new StreamId[request.keyCount];
        StreamGroup[] groups = new StreamGroup[request.keyCount];
        for (int i = 0; i < request.keyCount; i++) {
            Bytes key = request.key(ctx, i);
            StreamValue stream = Streams.read(ctx, key);
            if (readGroup) {
                groups[i] = stream == null ? null : stream.group(request.group);
                if (groups[i] == null) {
                    throw Streams.noGroup(key, request.group, " in XREADGROUP with GROUP option");
                }
            }
            ids[i] = parseId(ctx, request.idIndex(i), stream, readGroup);
        }
        long now = ctx.now();
        List<Served> served = new ArrayList<>();
        for (int i = 0; i < request.keyCount; i++) {
            Bytes key = request.key(ctx, i);
            StreamValue stream = Streams.read(ctx, key);
            if (stream == null) {
                continue;
            }
            StreamGroup group = groups[i];
            if (group == null) {
                StreamId last = stream.lastEntryId();
                if (last != null && last.greaterThan(ids[i])) {
                    served.add(new Served(key, StreamRangeCommands.entriesFrom(stream, ids[i].next(), request.count)));
                }
            } else if (!ids[i].equals(NEW_ENTRIES)) {
                StreamConsumer consumer = consumer(ctx, group, request.consumer, key, now);
                StreamId start = ids[i].next();
                served.add(new Served(key, start == null ? List.of()
                        : GroupReads.history(stream, consumer, start, request.count, now)));
                ctx.dirty(1);
            } else {
                StreamId last = stream.lastEntryId();
                if (last != null && last.greaterThan(group.lastId())) {
                    boolean[] created = new boolean[1];
                    StreamConsumer consumer = consumer(ctx, group, request.consumer, key, now, created);
                    List<Map.Entry<StreamId, byte[][]>> delivered = GroupReads.deliver(stream, group, consumer,
                            group.lastId().next(), request.count, request.noAck, now);
                    propagateDelivery(ctx, key, request, group, created[0], delivered);
                    served.add(new Served(key, delivered));
                    ctx.dirty(1);
                }
            }
        }
        if (!served.isEmpty()) {
            reply(ctx.reply(), served);
            return;
        }
        if (!request.blocks() || ctx.client().denyBlocking()) {
            ctx.reply().nullArray();
            return;
        }
        block(ctx, request, ids);
    }

    /** "$" (XREAD: the stream's last ID), ">" (XREADGROUP: new entries) or an ID. */
    private static StreamId parseId(CommandContext ctx, int index, StreamValue stream, boolean readGroup) {
        byte[] arg = ctx.arg(index);
        if (arg.length == 1 && arg[0] == '$') {
            if (readGroup) {
                throw DOLLAR_IN_GROUP;
            }
            return stream == null ? StreamId.MIN : stream.lastId();
        }
        if (arg.length == 1 && arg[0] == '>') {
            if (!readGroup) {
                throw GREATER_IN_XREAD;
            }
            return NEW_ENTRIES;
        }
        return StreamIds.strict(ctx, index);
    }

    private static StreamConsumer consumer(CommandContext ctx, StreamGroup group, Bytes name, Bytes key, long now) {
        return consumer(ctx, group, name, key, now, new boolean[1]);
    }

    private static StreamConsumer consumer(CommandContext ctx, StreamGroup group, Bytes name, Bytes key, long now,
                                           boolean[] created) {
        return GroupReads.consumer(group, name, now, () -> {
            ctx.notifyEvent(KeyspaceEvents.STREAM, "xgroup-createconsumer", key);
            ctx.dirty(1);
            created[0] = true;
        });
    }

    /**
     * What a delivery of new entries sends to the replicas: each entry that became pending as an XCLAIM (which
     * creates the consumer there too); with NOACK, the consumer's creation if it was new and the group's new last
     * ID. The XREADGROUP itself is never propagated.
     */
    private static void propagateDelivery(CommandContext ctx, Bytes key, StreamReadRequest request, StreamGroup group,
                                          boolean consumerCreated, List<Map.Entry<StreamId, byte[][]>> delivered) {
        ctx.preventPropagation();
        if (!request.noAck) {
            for (Map.Entry<StreamId, byte[][]> entry : delivered) {
                byte[] id = entry.getKey().bytes();
                GroupPropagation.claim(ctx, key.bytes(), request.group.bytes(), id, id,
                        group.pending().get(entry.getKey()));
            }
            return;
        }
        if (consumerCreated) {
            GroupPropagation.consumerCreated(ctx, key.bytes(), request.group.bytes(), request.consumer.bytes());
        }
        if (!delivered.isEmpty()) {
            GroupPropagation.lastId(ctx, key.bytes(), request.group.bytes(), group);
        }
    }

    /** RESP2: [[key, entries], ...]; RESP3: {key: entries, ...}. */
    private static void reply(Reply reply, List<Served> served) {
        if (reply.resp3()) {
            reply.map(served.size());
        } else {
            reply.array(served.size());
        }
        for (Served one : served) {
            if (!reply.resp3()) {
                reply.array(2);
            }
            reply.bulk(one.key().bytes());
            reply.array(one.entries().size());
            for (Map.Entry<StreamId, byte[][]> entry : one.entries()) {
                if (entry.getValue() == null) {
                    reply.array(2);
                    StreamReplies.id(reply, entry.getKey());
                    reply.nullArray();
                } else {
                    StreamReplies.entry(reply, entry);
                }
            }
        }
    }

    // ---- blocking ----

    /**
     * Waits on the keys, each with the ID its entries must pass (a key named twice keeps its first ID). A reader of
     * a group waits for entries past the group's last ID as it stands when served.
     */
    private void block(CommandContext ctx, StreamReadRequest request, StreamId[] ids) {
        Map<Bytes, StreamId> after = new LinkedHashMap<>();
        for (int i = 0; i < request.keyCount; i++) {
            after.putIfAbsent(request.key(ctx, i), ids[i]);
        }
        long count = request.count == 0 ? BLOCKED_DEFAULT_COUNT : request.count;
        Class<? extends RedisValue> readsType = request.group == null ? null : StreamValue.class;
        ctx.engine().blockedClients().block(ctx.client(), ctx.spec().fullName(), after.keySet().toArray(new Bytes[0]),
                request.deadline, key -> serveBlocked(ctx, request, key, after, count), readsType);
    }

    /** serveClientsBlockedOnStreamKey (and unblockDeletedStreamReadgroupClients): true when the client got its reply. */
    private boolean serveBlocked(CommandContext ctx, StreamReadRequest request, Bytes key, Map<Bytes, StreamId> after,
                                 long count) {
        RedisValue value = ctx.db().peek(key);
        if (!(value instanceof StreamValue stream)) {
            if (request.group != null) {
                throw STREAM_GONE;
            }
            return false;
        }
        StreamGroup group = null;
        if (request.group != null) {
            group = stream.group(request.group);
            if (group == null) {
                throw GROUP_GONE;
            }
            after.put(key, group.lastId());
        }
        StreamId from = after.get(key);
        if (!stream.lastId().greaterThan(from)) {
            return false;
        }
        List<Map.Entry<StreamId, byte[][]>> entries;
        if (group == null) {
            entries = StreamRangeCommands.entriesFrom(stream, from.next(), count);
        } else {
            long now = ctx.now();
            boolean[] created = new boolean[1];
            StreamConsumer consumer = consumer(ctx, group, request.consumer, key, now, created);
            entries = GroupReads.deliver(stream, group, consumer, from.next(), count, request.noAck, now);
            propagateDelivery(ctx, key, request, group, created[0], entries);
        }
        reply(ctx.reply(), List.of(new Served(key, entries)));
        return true;
    }
}
