package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.MemoryLayout;
import dev.redsim.simulator.keyspace.RedisValue;

/** MEMORY USAGE (object.c): the bytes Redis would use for a key, each value type estimating its own. */
public final class KeyMemoryCommands implements CommandFamily {
    private static final long DEFAULT_SAMPLES = 5;

    @Override
    public void register(CommandTable t) {
        t.handler("memory|usage", this::usage);
    }

    /** MEMORY USAGE key [SAMPLES count]: options are checked before the key is looked up, as in Redis. */
    private void usage(CommandContext ctx) {
        long samples = DEFAULT_SAMPLES;
        for (int i = 3; i < ctx.argc(); i++) {
            if (ctx.is(i, "samples") && i + 1 < ctx.argc()) {
                samples = ctx.longArg(i + 1);
                if (samples < 0) {
                    throw RedisError.SYNTAX;
                }
                if (samples == 0) {
                    samples = Long.MAX_VALUE;
                }
                i++;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        RedisValue value = ctx.db().get(ctx.key(2));
        if (value == null) {
            ctx.reply().nullBulk();
            return;
        }
        // the key: an sds string in a dict entry of the keyspace
        ctx.reply().integer(value.memoryUsage(samples) + MemoryLayout.sds(ctx.key(2).length()) + MemoryLayout.DICT_ENTRY);
    }
}
