package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StreamId;
import dev.redsim.simulator.keyspace.StreamValue;

import java.util.Arrays;

/** The writes of a stream's entries: XADD, XTRIM, XDEL, and XSETID, which moves the stream's IDs. */
public final class StreamAddCommands implements CommandFamily {
    private static final RedisError ZERO_ID = new RedisError("ERR The ID specified in XADD must be greater than 0-0");
    private static final RedisError EXHAUSTED =
            new RedisError("ERR The stream has exhausted the last possible ID, unable to add more items");
    private static final RedisError NOT_INCREASING =
            new RedisError("ERR The ID specified in XADD is equal or smaller than the target stream top item");

    @Override
    public void register(CommandTable t) {
        t.handler("xadd", this::xadd);
        t.handler("xtrim", this::xtrim);
        t.handler("xdel", this::xdel);
        t.handler("xsetid", this::xsetid);
    }

    // ---- XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value [field value ...] ----

    private void xadd(CommandContext ctx) {
        StreamTrimArgs args = StreamTrimArgs.parse(ctx, true);
        int fieldsFrom = args.idIndex + 1;
        int fieldArgs = ctx.argc() - fieldsFrom;
        if (fieldArgs < 2 || fieldArgs % 2 == 1) {
            throw RedisError.wrongArity(ctx.spec().fullName());
        }
        StreamIds.Parsed given = isAuto(ctx.arg(args.idIndex)) ? null : StreamIds.forAdd(ctx.arg(args.idIndex));
        if (given != null && given.seqGiven() && given.id().isMin()) {
            throw ZERO_ID; // before the lookup, so no empty stream is left behind
        }
        Bytes key = ctx.key(1);
        StreamValue stream = Streams.write(ctx, key);
        if (stream == null) {
            if (args.noMakeStream) {
                ctx.reply().nullBulk();
                return;
            }
            stream = new StreamValue();
            ctx.db().put(key, stream);
        }
        if (stream.lastId().isMax()) {
            throw EXHAUSTED;
        }
        StreamId id = newId(ctx, stream, given);
        byte[][] fieldsAndValues = Arrays.copyOfRange(ctx.args(), fieldsFrom, ctx.argc());
        stream.append(id, fieldsAndValues, ctx.engine().config().getLong("stream-node-max-bytes"),
                ctx.engine().config().getLong("stream-node-max-entries"));
        ctx.reply().bulk(id.bytes());
        Streams.changed(ctx, key, "xadd", 1);
        if (args.trims() && args.trim(stream) > 0) {
            ctx.notifyEvent(KeyspaceEvents.STREAM, "xtrim", key);
        }
        // the replicas get the ID made here ("*" would make another one there) and the exact trim
        byte[][] propagated = ctx.args().clone();
        propagated[args.idIndex] = id.bytes();
        ctx.propagateAs(args.trims() ? args.exactTrim(propagated, stream) : propagated);
        Streams.signalReady(ctx, key);
    }

    private static boolean isAuto(byte[] arg) {
        return arg.length == 1 && arg[0] == '*';
    }

    /**
     * The new entry's ID: the given one, or for "ms-*" the next sequence of that millisecond, or for "*" the
     * simulator's clock (the last ID's next one when the clock is not past it). Must exceed the last ID.
     */
    private static StreamId newId(CommandContext ctx, StreamValue stream, StreamIds.Parsed given) {
        StreamId last = stream.lastId();
        StreamId id;
        if (given == null) {
            long now = ctx.now();
            id = Long.compareUnsigned(now, last.ms()) > 0 ? new StreamId(now, 0) : last.next();
        } else if (given.seqGiven()) {
            id = given.id();
        } else if (given.id().ms() == last.ms()) {
            if (last.seq() == -1L) {
                throw NOT_INCREASING;
            }
            id = new StreamId(last.ms(), last.seq() + 1);
        } else {
            id = given.id();
        }
        if (!id.greaterThan(last)) {
            throw NOT_INCREASING;
        }
        return id;
    }

    // ---- XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count] ----

    private void xtrim(CommandContext ctx) {
        StreamTrimArgs args = StreamTrimArgs.parse(ctx, false);
        Bytes key = ctx.key(1);
        StreamValue stream = Streams.write(ctx, key);
        if (stream == null) {
            ctx.reply().integer(0);
            return;
        }
        long deleted = args.trim(stream);
        ctx.propagateAs(args.exactTrim(ctx.args(), stream));
        if (deleted > 0) {
            ctx.notifyEvent(KeyspaceEvents.STREAM, "xtrim", key);
            ctx.signalModified(key);
            ctx.dirty(deleted);
        }
        ctx.reply().integer(deleted);
    }

    // ---- XDEL key id [id ...] ----

    private void xdel(CommandContext ctx) {
        Bytes key = ctx.key(1);
        StreamValue stream = Streams.write(ctx, key);
        if (stream == null) {
            ctx.reply().integer(0);
            return;
        }
        // every ID is checked before any entry goes
        StreamId[] ids = new StreamId[ctx.argc() - 2];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = StreamIds.strict(ctx, i + 2);
        }
        long deleted = 0;
        boolean firstDeleted = false;
        for (StreamId id : ids) {
            if (stream.delete(id)) {
                firstDeleted |= id.equals(stream.firstId());
                if (id.greaterThan(stream.maxDeletedId())) {
                    stream.maxDeletedId(id);
                }
                deleted++;
            }
        }
        if (deleted > 0) {
            if (stream.length() == 0 || firstDeleted) {
                stream.refreshFirstId();
            }
            Streams.changed(ctx, key, "xdel", deleted);
        }
        ctx.reply().integer(deleted);
    }

    // ---- XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id] ----

    private void xsetid(CommandContext ctx) {
        StreamId id = StreamIds.strict(ctx, 2);
        long entriesAdded = -1;
        StreamId maxDeleted = StreamId.MIN;
        for (int i = 3; i < ctx.argc(); i += 2) {
            boolean more = i < ctx.argc() - 1;
            if (ctx.is(i, "entriesadded") && more) {
                entriesAdded = ctx.longArg(i + 1);
                if (entriesAdded < 0) {
                    throw new RedisError("ERR entries_added must be positive");
                }
            } else if (ctx.is(i, "maxdeletedid") && more) {
                maxDeleted = StreamIds.strict(ctx, i + 1);
                if (id.lessThan(maxDeleted)) {
                    throw new RedisError("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
                }
            } else {
                throw RedisError.SYNTAX;
            }
        }
        Bytes key = ctx.key(1);
        StreamValue stream = Streams.write(ctx, key);
        if (stream == null) {
            throw RedisError.NO_SUCH_KEY;
        }
        // unlike later versions, 7.0 lets the ID go below the largest deleted one (and MAXDELETEDID lower it)
        if (stream.length() > 0) {
            if (id.lessThan(stream.lastEntryId())) {
                throw new RedisError("ERR The ID specified in XSETID is smaller than the target stream top item");
            }
            if (entriesAdded != -1 && stream.length() > entriesAdded) {
                throw new RedisError("ERR The entries_added specified in XSETID is smaller than the target stream length");
            }
        }
        stream.lastId(id);
        if (entriesAdded != -1) {
            stream.entriesAdded(entriesAdded);
        }
        if (!maxDeleted.isMin()) {
            stream.maxDeletedId(maxDeleted);
        }
        ctx.reply().ok();
        Streams.groupChanged(ctx, key, "xsetid");
    }
}
