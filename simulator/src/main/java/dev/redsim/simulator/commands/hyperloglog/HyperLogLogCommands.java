package dev.redsim.simulator.commands.hyperloglog;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.StringValue;

/**
 * PFADD, PFCOUNT and PFMERGE (hyperloglog.c). An HLL is a string value, so GET, SET, DUMP and the string
 * commands see the very bytes Redis would store. PFADD costs O(1) per element (O(sparse length) while sparse, as
 * in Redis), PFCOUNT O(1) with a valid cache, else O(16384) per key, PFMERGE O(16384) per key.
 */
public final class HyperLogLogCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("pfadd", this::pfadd);
        t.handler("pfcount", this::pfcount);
        t.handler("pfmerge", this::pfmerge);
    }

    static long sparseMaxBytes(CommandContext ctx) {
        return ctx.engine().config().getLong("hll-sparse-max-bytes");
    }

    private void pfadd(CommandContext ctx) {
        Bytes key = ctx.key(1);
        StringValue current = ctx.db().get(key, StringValue.class);
        long updated = 0;
        HllValues.Editable target;
        if (current == null) {
            target = HllValues.create(ctx, key);
            updated++;
        } else {
            target = HllValues.edit(ctx, key, current);
        }
        Hll hll = target.hll();
        long maxBytes = sparseMaxBytes(ctx);
        for (int j = 2; j < ctx.argc(); j++) {
            int result = hll.add(ctx.arg(j), maxBytes);
            if (result < 0) {
                target.store(ctx); // what the elements before did stays, as in Redis
                throw HllValues.CORRUPT;
            }
            updated += result;
        }
        if (updated > 0) {
            hll.invalidateCache();
        }
        target.store(ctx);
        if (updated > 0) {
            ctx.signalModified(key);
            ctx.notifyEvent(KeyspaceEvents.STRING, "pfadd", key);
            ctx.dirty(updated);
        }
        ctx.reply().integer(updated > 0 ? 1 : 0);
    }

    private void pfcount(CommandContext ctx) {
        if (ctx.argc() > 2) {
            ctx.reply().integer(HllEstimator.estimate(rawHistogram(unionOf(ctx, 1).max())));
            return;
        }
        Bytes key = ctx.key(1);
        StringValue value = ctx.db().getForRead(key, StringValue.class);
        if (value == null) {
            ctx.reply().integer(0);
            return;
        }
        HllValues.Editable target = HllValues.edit(ctx, key, value);
        Hll hll = target.hll();
        if (hll.cacheValid()) {
            ctx.reply().integer(hll.cachedCardinality());
            return;
        }
        int[] histogram = hll.histogram();
        if (histogram == null) {
            throw HllValues.CORRUPT;
        }
        long card = HllEstimator.estimate(histogram);
        // Writing the cache changes the string: Redis signals it (WATCH) and counts it as a change.
        hll.cacheCardinality(card);
        ctx.signalModified(key);
        ctx.dirty(1);
        ctx.reply().integer(card);
    }

    /** The register-wise maximum of several HLLs, one byte per register (Redis's internal raw encoding). */
    private record Union(byte[] max, boolean anyDense) {
    }

    /** The union of the HLLs under keys {@code from..}; missing keys count as empty HLLs. */
    private static Union unionOf(CommandContext ctx, int from) {
        byte[] max = new byte[Hll.REGISTERS];
        boolean anyDense = false;
        for (int j = from; j < ctx.argc(); j++) {
            StringValue value = ctx.db().getForRead(ctx.key(j), StringValue.class);
            if (value == null) {
                continue;
            }
            Hll hll = HllValues.read(value);
            anyDense |= hll.encoding() == Hll.DENSE;
            if (!hll.mergeInto(max)) {
                throw HllValues.CORRUPT;
            }
        }
        return new Union(max, anyDense);
    }

    private static int[] rawHistogram(byte[] registers) {
        int[] histogram = new int[64];
        for (byte register : registers) {
            histogram[register]++;
        }
        return histogram;
    }

    private void pfmerge(CommandContext ctx) {
        // The destination's own registers take part (the union starts at argument 1), and if any input is
        // dense the destination becomes dense first.
        Union union = unionOf(ctx, 1);
        byte[] max = union.max();
        Bytes key = ctx.key(1);
        StringValue current = ctx.db().get(key, StringValue.class);
        HllValues.Editable target = current == null ? HllValues.create(ctx, key) : HllValues.edit(ctx, key, current);
        Hll hll = target.hll();
        if (union.anyDense() && !hll.toDense()) {
            target.store(ctx);
            throw HllValues.CORRUPT;
        }
        long maxBytes = sparseMaxBytes(ctx);
        for (int j = 0; j < Hll.REGISTERS; j++) {
            if (max[j] != 0) {
                hll.set(j, max[j], maxBytes);
            }
        }
        hll.invalidateCache();
        target.store(ctx);
        ctx.signalModified(key);
        // Redis reports a PFMERGE as "pfadd": in effect a mass add of elements
        ctx.notifyEvent(KeyspaceEvents.STRING, "pfadd", key);
        ctx.dirty(1);
        ctx.reply().ok();
    }
}
