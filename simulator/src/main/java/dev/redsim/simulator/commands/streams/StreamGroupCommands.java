package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StreamConsumer;
import dev.redsim.simulator.keyspace.StreamGroup;
import dev.redsim.simulator.keyspace.StreamId;
import dev.redsim.simulator.keyspace.StreamValue;

/**
 * XGROUP CREATE, SETID, DESTROY, CREATECONSUMER, DELCONSUMER and HELP (xgroupCommand): the key is looked up
 * first (it must exist unless CREATE has MKSTREAM), then the group where the subcommand needs one.
 */
public final class StreamGroupCommands implements CommandFamily {
    private static final RedisError KEY_REQUIRED = new RedisError("ERR The XGROUP subcommand requires the key to exist. "
            + "Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.");
    private static final RedisError BUSY_GROUP = new RedisError("BUSYGROUP Consumer Group name already exists");
    private static final RedisError ENTRIES_READ =
            new RedisError("ERR value for ENTRIESREAD must be positive or -1");

    @Override
    public void register(CommandTable t) {
        t.handler("xgroup|create", this::create);
        t.handler("xgroup|setid", this::setId);
        t.handler("xgroup|destroy", this::destroy);
        t.handler("xgroup|createconsumer", this::createConsumer);
        t.handler("xgroup|delconsumer", this::deleteConsumer);
        t.handler("xgroup|help", this::help);
    }

    /** The stream, which must exist unless {@code mayBeMissing}; WRONGTYPE for another type. */
    private static StreamValue stream(CommandContext ctx, boolean mayBeMissing) {
        StreamValue stream = Streams.write(ctx, ctx.key(2));
        if (stream == null && !mayBeMissing) {
            throw KEY_REQUIRED;
        }
        return stream;
    }

    private static StreamGroup requireGroup(CommandContext ctx, StreamValue stream) {
        StreamGroup group = stream.group(ctx.key(3));
        if (group == null) {
            throw new RedisError("NOGROUP No such consumer group '" + ctx.text(3) + "' for key name '" + ctx.text(2) + "'");
        }
        return group;
    }

    private static long entriesRead(CommandContext ctx, int index) {
        long value = ctx.longArg(index);
        if (value < 0 && value != StreamGroup.UNKNOWN_ENTRIES_READ) {
            throw ENTRIES_READ;
        }
        return value;
    }

    // ---- XGROUP CREATE key group id|$ [MKSTREAM] [ENTRIESREAD entries-read] ----

    private void create(CommandContext ctx) {
        boolean makeStream = false;
        long entriesRead = StreamGroup.UNKNOWN_ENTRIES_READ;
        for (int i = 5; i < ctx.argc(); i++) {
            if (ctx.is(i, "mkstream")) {
                makeStream = true;
            } else if (ctx.is(i, "entriesread") && i + 1 < ctx.argc()) {
                entriesRead = entriesRead(ctx, ++i);
            } else {
                throw Streams.subcommandSyntax(ctx);
            }
        }
        StreamValue stream = stream(ctx, makeStream);
        if (ctx.argc() > 8) {
            throw Streams.subcommandSyntax(ctx);
        }
        StreamId id;
        if (ctx.arg(4).length == 1 && ctx.arg(4)[0] == '$') {
            id = stream == null ? StreamId.MIN : stream.lastId();
        } else {
            id = StreamIds.strict(ctx, 4);
        }
        Bytes key = ctx.key(2);
        if (stream == null) {
            stream = new StreamValue();
            ctx.db().put(key, stream);
            ctx.signalModified(key);
        }
        if (stream.group(ctx.key(3)) != null) {
            throw BUSY_GROUP;
        }
        stream.createGroup(ctx.key(3), id, entriesRead);
        ctx.reply().ok();
        Streams.groupChanged(ctx, key, "xgroup-create");
    }

    // ---- XGROUP SETID key group id|$ [ENTRIESREAD entries-read] ----

    private void setId(CommandContext ctx) {
        StreamValue stream = stream(ctx, false);
        StreamGroup group = requireGroup(ctx, stream);
        if (ctx.argc() != 5 && ctx.argc() != 7) {
            throw Streams.subcommandSyntax(ctx);
        }
        StreamId id;
        if (ctx.arg(4).length == 1 && ctx.arg(4)[0] == '$') {
            id = stream.lastId();
        } else {
            id = StreamIds.lenient(ctx, 4, 0);
        }
        long entriesRead = StreamGroup.UNKNOWN_ENTRIES_READ;
        if (ctx.argc() == 7) {
            if (!ctx.is(5, "entriesread")) {
                throw Streams.subcommandSyntax(ctx);
            }
            entriesRead = entriesRead(ctx, 6);
        }
        group.lastId(id);
        group.entriesRead(entriesRead);
        ctx.reply().ok();
        Streams.groupChanged(ctx, ctx.key(2), "xgroup-setid");
    }

    // ---- XGROUP DESTROY key group ----

    private void destroy(CommandContext ctx) {
        StreamValue stream = stream(ctx, false);
        Bytes key = ctx.key(2);
        if (!stream.destroyGroup(ctx.key(3))) {
            ctx.reply().integer(0);
            return;
        }
        ctx.reply().integer(1);
        Streams.groupChanged(ctx, key, "xgroup-destroy");
        Streams.signalReady(ctx, key); // its blocked readers learn that it is gone
    }

    // ---- XGROUP CREATECONSUMER key group consumer ----

    private void createConsumer(CommandContext ctx) {
        StreamValue stream = stream(ctx, false);
        StreamGroup group = requireGroup(ctx, stream);
        Bytes name = ctx.key(4);
        if (group.consumer(name) != null) {
            ctx.reply().integer(0);
            return;
        }
        group.createConsumer(name, ctx.now());
        ctx.reply().integer(1);
        Streams.groupChanged(ctx, ctx.key(2), "xgroup-createconsumer");
    }

    // ---- XGROUP DELCONSUMER key group consumer ----

    private void deleteConsumer(CommandContext ctx) {
        StreamValue stream = stream(ctx, false);
        StreamGroup group = requireGroup(ctx, stream);
        StreamConsumer consumer = group.consumer(ctx.key(4));
        if (consumer == null) {
            ctx.reply().integer(0);
            return;
        }
        ctx.reply().integer(group.deleteConsumer(consumer));
        Streams.groupChanged(ctx, ctx.key(2), "xgroup-delconsumer");
    }

    private void help(CommandContext ctx) {
        String[] lines = {
                "XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                "CREATE <key> <groupname> <id|$> [option]",
                "    Create a new consumer group. Options are:",
                "    * MKSTREAM",
                "      Create the empty stream if it does not exist.",
                "    * ENTRIESREAD entries_read",
                "      Set the group's entries_read counter (internal use).",
                "CREATECONSUMER <key> <groupname> <consumer>",
                "    Create a new consumer in the specified group.",
                "DELCONSUMER <key> <groupname> <consumer>",
                "    Remove the specified consumer.",
                "DESTROY <key> <groupname>",
                "    Remove the specified group.",
                "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
                "    Set the current group ID and entries_read counter.",
                "HELP",
                "    Prints this help."};
        ctx.reply().array(lines.length);
        for (String line : lines) {
            ctx.reply().simple(line);
        }
    }
}
