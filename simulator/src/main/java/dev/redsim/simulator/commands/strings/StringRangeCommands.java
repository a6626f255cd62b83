package dev.redsim.simulator.commands.strings;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StringValue;
import dev.redsim.simulator.util.ChunkedBytes;

/** GETRANGE, SUBSTR and SETRANGE: reading and overwriting a byte range of a string. */
public final class StringRangeCommands implements CommandFamily {
    private static final byte[] EMPTY = new byte[0];
    private static final RedisError OFFSET_OUT_OF_RANGE = new RedisError("ERR offset is out of range");

    @Override
    public void register(CommandTable t) {
        t.handler("getrange", this::getrange);
        t.handler("substr", this::getrange);
        t.handler("setrange", this::setrange);
    }

    private void getrange(CommandContext ctx) {
        long start = ctx.longArg(2);
        long end = ctx.longArg(3);
        StringValue value = StringCommands.readString(ctx, ctx.key(1));
        if (value == null) {
            ctx.reply().bulk(EMPTY);
            return;
        }
        long length = value.length();
        if (start < 0 && end < 0 && start > end) {
            ctx.reply().bulk(EMPTY);
            return;
        }
        if (start < 0) {
            start = Math.max(0, length + start);
        }
        if (end < 0) {
            end = Math.max(0, length + end);
        }
        if (end >= length) {
            end = length - 1;
        }
        if (start > end || length == 0) {
            ctx.reply().bulk(EMPTY);
        } else {
            ChunkedBytes chunks = value.chunks();
            if (chunks != null) {
                ctx.reply().bulk(chunks, (int) start, (int) (end - start + 1));
            } else {
                ctx.reply().bulk(value.readArray(), (int) start, (int) (end - start + 1));
            }
        }
    }

    private void setrange(CommandContext ctx) {
        long offset = ctx.longArg(2);
        if (offset < 0) {
            throw OFFSET_OUT_OF_RANGE;
        }
        Bytes key = ctx.key(1);
        byte[] patch = ctx.arg(3);
        StringValue current = ctx.db().get(key, StringValue.class);
        int oldLength = current == null ? 0 : current.length();
        if (patch.length == 0) {
            // Nothing to write: the key is neither created nor changed.
            ctx.reply().integer(oldLength);
            return;
        }
        long needed = offset + patch.length;
        if (needed < 0) {
            needed = Long.MAX_VALUE; // overflow: certainly too big
        }
        StringCommands.checkStringLength(ctx, needed);
        StringValue target = StringValue.editable(current);
        target.growTo((int) needed); // zero padding up to the offset, as sdsgrowzero
        System.arraycopy(patch, 0, target.array(), (int) offset, patch.length);
        if (target != current) {
            ctx.db().putKeepTtl(key, target);
        }
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.STRING, "setrange", key);
        ctx.dirty(1);
        ctx.reply().integer(target.length());
    }
}
