package dev.redsim.simulator.commands.strings;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StringValue;

/** BITOP: AND, OR, XOR or NOT of strings into a destination key; shorter inputs count as zero padded. */
public final class StringBitOpCommands implements CommandFamily {
    private enum Op { AND, OR, XOR, NOT }

    @Override
    public void register(CommandTable t) {
        t.handler("bitop", this::bitop);
    }

    private void bitop(CommandContext ctx) {
        Op op = parseOp(ctx);
        if (op == Op.NOT && ctx.argc() != 4) {
            throw new RedisError("ERR BITOP NOT must be called with a single source key.");
        }
        int count = ctx.argc() - 3;
        byte[][] sources = new byte[count][];
        int maxLength = 0;
        for (int j = 0; j < count; j++) {
            StringValue value = StringCommands.readString(ctx, ctx.key(j + 3));
            sources[j] = value == null ? new byte[0] : value.bytes();
            maxLength = Math.max(maxLength, sources[j].length);
        }
        Bytes destination = ctx.key(2);
        if (maxLength == 0) {
            // An empty result removes the destination.
            if (ctx.db().delete(destination)) {
                ctx.signalModified(destination);
                ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", destination);
                ctx.dirty(1);
            }
            ctx.reply().integer(0);
            return;
        }
        byte[] result = compute(op, sources, maxLength);
        // As setKey: any old value and TTL are replaced; the new string is raw.
        ctx.db().put(destination, StringValue.edited(result));
        ctx.signalModified(destination);
        ctx.notifyEvent(KeyspaceEvents.STRING, "set", destination);
        ctx.dirty(1);
        ctx.reply().integer(maxLength);
    }

    private static Op parseOp(CommandContext ctx) {
        for (Op op : Op.values()) {
            if (ctx.is(1, op.name())) {
                return op;
            }
        }
        throw RedisError.SYNTAX;
    }

    private static byte[] compute(Op op, byte[][] sources, int length) {
        byte[] out = new byte[length];
        if (op == Op.NOT) {
            byte[] src = sources[0];
            for (int i = 0; i < length; i++) {
                out[i] = (byte) ~src[i];
            }
            return out;
        }
        System.arraycopy(sources[0], 0, out, 0, sources[0].length);
        for (int j = 1; j < sources.length; j++) {
            byte[] src = sources[j];
            switch (op) {
                case AND -> {
                    for (int i = 0; i < length; i++) {
                        out[i] &= i < src.length ? src[i] : 0;
                    }
                }
                case OR -> {
                    for (int i = 0; i < src.length; i++) {
                        out[i] |= src[i];
                    }
                }
                default -> {
                    for (int i = 0; i < src.length; i++) {
                        out[i] ^= src[i];
                    }
                }
            }
        }
        return out;
    }
}
