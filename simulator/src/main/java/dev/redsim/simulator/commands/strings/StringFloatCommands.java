package dev.redsim.simulator.commands.strings;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StringValue;
import dev.redsim.simulator.util.LongDoubleMath;

/** INCRBYFLOAT, computed in emulated x87 long double as Redis computes it. */
public final class StringFloatCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("incrbyfloat", this::incrByFloat);
    }

    private void incrByFloat(CommandContext ctx) {
        Bytes key = ctx.key(1);
        StringValue current = ctx.db().get(key, StringValue.class);
        byte[] result = LongDoubleMath.add(current == null ? null : current.bytes(), ctx.arg(2));
        // Redis overwrites the value and keeps the TTL; the new string is never int-encoded.
        ctx.db().putKeepTtl(key, StringValue.unencoded(result));
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.STRING, "incrbyfloat", key);
        ctx.dirty(1);
        // the replica stores the result (its float arithmetic could round otherwise), keeping the TTL
        ctx.propagateAs("SET", ctx.arg(1), result, "KEEPTTL");
        ctx.reply().bulk(result);
    }
}
