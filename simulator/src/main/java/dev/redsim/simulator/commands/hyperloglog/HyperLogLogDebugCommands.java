package dev.redsim.simulator.commands.hyperloglog;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StringValue;

import java.nio.charset.StandardCharsets;

/** PFDEBUG (GETREG, DECODE, ENCODING, TODENSE) and PFSELFTEST of hyperloglog.c. */
public final class HyperLogLogDebugCommands implements CommandFamily {
    private static final RedisError NO_KEY = new RedisError("ERR The specified key does not exist");
    private static final RedisError NOT_SPARSE = new RedisError("ERR HLL encoding is not sparse");

    @Override
    public void register(CommandTable t) {
        t.handler("pfdebug", this::pfdebug);
        t.handler("pfselftest", ctx -> ctx.reply().simple(HllSelfTest.run(HyperLogLogCommands.sparseMaxBytes(ctx))));
    }

    /** The key is looked up, checked and unshared before the subcommand is even read, as in Redis. */
    private void pfdebug(CommandContext ctx) {
        Bytes key = ctx.key(2);
        StringValue value = ctx.db().get(key, StringValue.class);
        if (value == null) {
            throw NO_KEY;
        }
        HllValues.Editable target = HllValues.edit(ctx, key, value);
        Hll hll = target.hll();
        if (ctx.is(1, "getreg")) {
            toDense(ctx, target);
            ctx.reply().array(Hll.REGISTERS);
            for (int j = 0; j < Hll.REGISTERS; j++) {
                ctx.reply().integer(HllDense.get(hll.bytes, j));
            }
        } else if (ctx.is(1, "decode")) {
            if (hll.encoding() != Hll.SPARSE) {
                throw NOT_SPARSE;
            }
            ctx.reply().bulk(HllSparse.decode(hll).getBytes(StandardCharsets.US_ASCII));
        } else if (ctx.is(1, "encoding")) {
            ctx.reply().simple(hll.encoding() == Hll.DENSE ? "dense" : "sparse");
        } else if (ctx.is(1, "todense")) {
            ctx.reply().integer(toDense(ctx, target) ? 1 : 0);
        } else {
            throw new RedisError("ERR Unknown PFDEBUG subcommand '" + ctx.text(1) + "'");
        }
    }

    /** Converts a sparse HLL under its key to dense; true when it was sparse. Counted as a change, not signalled. */
    private static boolean toDense(CommandContext ctx, HllValues.Editable target) {
        if (target.hll().encoding() != Hll.SPARSE) {
            return false;
        }
        if (!target.hll().toDense()) {
            throw HllValues.CORRUPT;
        }
        target.store(ctx);
        ctx.dirty(1);
        return true;
    }
}
