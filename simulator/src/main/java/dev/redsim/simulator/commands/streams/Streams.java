package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StreamGroup;
import dev.redsim.simulator.keyspace.StreamValue;

/** Lookups and side effects the stream commands share. */
final class Streams {
    private Streams() {
    }

    /** The stream under a key for a read (counts hits and misses), or null; WRONGTYPE for other types. */
    static StreamValue read(CommandContext ctx, Bytes key) {
        return ctx.db().getForRead(key, StreamValue.class);
    }

    /** The stream under a key for a write, or null; WRONGTYPE for other types. */
    static StreamValue write(CommandContext ctx, Bytes key) {
        return ctx.db().get(key, StreamValue.class);
    }

    /** A write that changed the stream's entries: WATCH, the event, the dirty counter. */
    static void changed(CommandContext ctx, Bytes key, String event, long dirty) {
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.STREAM, event, key);
        ctx.dirty(dirty);
    }

    /** A write to the stream's groups or IDs: Redis signals no key change for these, only the event. */
    static void groupChanged(CommandContext ctx, Bytes key, String event) {
        ctx.notifyEvent(KeyspaceEvents.STREAM, event, key);
        ctx.dirty(1);
    }

    /** signalKeyAsReady: clients blocked on the key get a look at it after this command. */
    static void signalReady(CommandContext ctx, Bytes key) {
        ctx.engine().blockedClients().keySignalled(ctx.client().db(), key);
    }

    /**
     * The group of a stream that must exist for the command ("-NOGROUP No such key 'k' or consumer group 'g'" plus
     * the command's own words); WRONGTYPE when the key holds another type.
     */
    static StreamGroup requireGroup(StreamValue stream, Bytes key, Bytes group, String suffix) {
        StreamGroup found = stream == null ? null : stream.group(group);
        if (found == null) {
            throw noGroup(key, group, suffix);
        }
        return found;
    }

    static RedisError noGroup(Bytes key, Bytes group, String suffix) {
        return new RedisError("NOGROUP No such key '" + text(key) + "' or consumer group '" + text(group) + "'" + suffix);
    }

    static String text(Bytes bytes) {
        return dev.redsim.simulator.util.ByteText.decode(bytes.bytes());
    }

    /** addReplySubcommandSyntaxError: "ERR unknown subcommand or wrong number of arguments for 'x'. Try XGROUP HELP." */
    static RedisError subcommandSyntax(CommandContext ctx) {
        return ctx.subcommandSyntaxError();
    }

    /** A script's client (redis.call) runs without a connection of its own. */
    static boolean fromScript(CommandContext ctx) {
        return ctx.client().connection() == null;
    }
}
