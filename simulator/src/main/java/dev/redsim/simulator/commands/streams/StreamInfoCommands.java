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
import dev.redsim.simulator.protocol.Reply;

import java.util.Map;

/** XINFO STREAM [FULL [COUNT n]], XINFO GROUPS, XINFO CONSUMERS and XINFO HELP (xinfoCommand). */
public final class StreamInfoCommands implements CommandFamily {
    /** XINFO STREAM FULL shows this many entries and pending entries per list unless told otherwise. */
    private static final long FULL_DEFAULT_COUNT = 10;

    @Override
    public void register(CommandTable t) {
        t.handler("xinfo|stream", this::stream);
        t.handler("xinfo|groups", this::groups);
        t.handler("xinfo|consumers", this::consumers);
        t.handler("xinfo|help", this::help);
    }

    /** The stream: "ERR no such key" when missing, WRONGTYPE for another type. */
    private static StreamValue existing(CommandContext ctx) {
        StreamValue stream = Streams.read(ctx, ctx.key(2));
        if (stream == null) {
            throw RedisError.NO_SUCH_KEY;
        }
        return stream;
    }

    // ---- XINFO STREAM key [FULL [COUNT count]] ----

    private void stream(CommandContext ctx) {
        StreamValue stream = existing(ctx);
        boolean full = ctx.argc() > 3;
        long count = FULL_DEFAULT_COUNT;
        if (full) {
            if (!ctx.is(3, "full")) {
                throw Streams.subcommandSyntax(ctx);
            }
            if (ctx.argc() > 4) {
                if (ctx.argc() != 6 || !ctx.is(4, "count")) {
                    throw Streams.subcommandSyntax(ctx);
                }
                count = ctx.longArg(5);
                if (count < 0) {
                    count = FULL_DEFAULT_COUNT;
                }
            }
        }
        Reply reply = ctx.reply();
        reply.map(full ? 9 : 10);
        reply.bulk("length");
        reply.integer(stream.length());
        reply.bulk("radix-tree-keys");
        reply.integer(stream.nodeCount());
        reply.bulk("radix-tree-nodes");
        reply.integer(stream.raxNodeCount());
        reply.bulk("last-generated-id");
        StreamReplies.id(reply, stream.lastId());
        reply.bulk("max-deleted-entry-id");
        StreamReplies.id(reply, stream.maxDeletedId());
        reply.bulk("entries-added");
        reply.integer(stream.entriesAdded());
        reply.bulk("recorded-first-entry-id");
        StreamReplies.id(reply, stream.firstId());
        if (full) {
            full(reply, stream, count);
            return;
        }
        reply.bulk("groups");
        reply.integer(stream.groups().size());
        reply.bulk("first-entry");
        edgeEntry(reply, stream.entries().firstEntry());
        reply.bulk("last-entry");
        edgeEntry(reply, stream.entries().lastEntry());
    }

    private static void edgeEntry(Reply reply, Map.Entry<StreamId, byte[][]> entry) {
        if (entry == null) {
            reply.nullBulk();
        } else {
            StreamReplies.entry(reply, entry);
        }
    }

    /** FULL: the entries (COUNT of them, 0 for all) and every group with its pending entries and consumers. */
    private static void full(Reply reply, StreamValue stream, long count) {
        long limit = count == 0 ? Long.MAX_VALUE : count;
        reply.bulk("entries");
        int shown = (int) Math.min(limit, stream.length());
        reply.array(shown);
        int written = 0;
        for (Map.Entry<StreamId, byte[][]> entry : stream.entries().entrySet()) {
            if (written++ == shown) {
                break;
            }
            StreamReplies.entry(reply, entry);
        }
        reply.bulk("groups");
        reply.array(stream.groups().size());
        for (StreamGroup group : stream.groups().values()) {
            reply.map(7);
            reply.bulk("name");
            reply.bulk(group.name().bytes());
            reply.bulk("last-delivered-id");
            StreamReplies.id(reply, group.lastId());
            reply.bulk("entries-read");
            readCounter(reply, group);
            reply.bulk("lag");
            lag(reply, stream, group);
            reply.bulk("pel-count");
            reply.integer(group.pending().size());
            reply.bulk("pending");
            pendingEntries(reply, group.pending(), limit, true);
            reply.bulk("consumers");
            reply.array(group.consumers().size());
            for (StreamConsumer consumer : group.consumers().values()) {
                reply.map(4);
                reply.bulk("name");
                reply.bulk(consumer.name().bytes());
                reply.bulk("seen-time");
                reply.integer(consumer.seenAt());
                reply.bulk("pel-count");
                reply.integer(consumer.pending().size());
                reply.bulk("pending");
                pendingEntries(reply, consumer.pending(), limit, false);
            }
        }
    }

    /**
     * A pending entries list as XINFO STREAM FULL shows it, the first {@code limit} entries: ID, the consumer's name
     * (in the group's list only), delivery time and delivery count.
     */
    private static void pendingEntries(Reply reply, RaxMap<PendingEntry> pending, long limit, boolean withConsumer) {
        int shown = (int) Math.min(limit, pending.size());
        reply.array(shown);
        int written = 0;
        for (Map.Entry<StreamId, PendingEntry> e : pending.view().entrySet()) {
            if (written++ == shown) {
                break;
            }
            reply.array(withConsumer ? 4 : 3);
            StreamReplies.id(reply, e.getKey());
            if (withConsumer) {
                reply.bulk(e.getValue().consumer().name().bytes());
            }
            reply.integer(e.getValue().deliveredAt());
            reply.integer(e.getValue().deliveries());
        }
    }

    private static void readCounter(Reply reply, StreamGroup group) {
        if (group.entriesRead() == StreamGroup.UNKNOWN_ENTRIES_READ) {
            reply.nullBulk();
        } else {
            reply.integer(group.entriesRead());
        }
    }

    private static void lag(Reply reply, StreamValue stream, StreamGroup group) {
        Long lag = stream.lag(group);
        if (lag == null) {
            reply.nullBulk();
        } else {
            reply.integer(lag);
        }
    }

    // ---- XINFO GROUPS key ----

    private void groups(CommandContext ctx) {
        StreamValue stream = existing(ctx);
        Reply reply = ctx.reply();
        reply.array(stream.groups().size());
        for (StreamGroup group : stream.groups().values()) {
            reply.map(6);
            reply.bulk("name");
            reply.bulk(group.name().bytes());
            reply.bulk("consumers");
            reply.integer(group.consumers().size());
            reply.bulk("pending");
            reply.integer(group.pending().size());
            reply.bulk("last-delivered-id");
            StreamReplies.id(reply, group.lastId());
            reply.bulk("entries-read");
            readCounter(reply, group);
            reply.bulk("lag");
            lag(reply, stream, group);
        }
    }

    // ---- XINFO CONSUMERS key group ----

    private void consumers(CommandContext ctx) {
        StreamValue stream = existing(ctx);
        Bytes name = ctx.key(3);
        StreamGroup group = stream.group(name);
        if (group == null) {
            throw new RedisError("NOGROUP No such consumer group '" + ctx.text(3) + "' for key name '" + ctx.text(2) + "'");
        }
        long now = ctx.now();
        Reply reply = ctx.reply();
        reply.array(group.consumers().size());
        for (StreamConsumer consumer : group.consumers().values()) {
            reply.map(3);
            reply.bulk("name");
            reply.bulk(consumer.name().bytes());
            reply.bulk("pending");
            reply.integer(consumer.pending().size());
            reply.bulk("idle");
            reply.integer(Math.max(0, now - consumer.seenAt()));
        }
    }

    private void help(CommandContext ctx) {
        String[] lines = {
                "XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                "CONSUMERS <key> <groupname>",
                "    Show consumers of <groupname>.",
                "GROUPS <key>",
                "    Show the stream consumer groups.",
                "STREAM <key> [FULL [COUNT <count>]",
                "    Show information about the stream.",
                "HELP",
                "    Prints this help."};
        ctx.reply().array(lines.length);
        for (String line : lines) {
            ctx.reply().simple(line);
        }
    }
}
