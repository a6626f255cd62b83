package dev.redsim.simulator.commands.sets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.SetValue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** SPOP and SRANDMEMBER: the set commands whose answers are random. */
final class SetRandom {
    private static final RedisError SRANDMEMBER_RANGE = new RedisError(
            "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807");

    void register(CommandTable t) {
        t.handler("spop", this::spop);
        t.handler("srandmember", this::srandmember);
    }

    private static int randomIndex(int bound) {
        return ThreadLocalRandom.current().nextInt(bound);
    }

    private void spop(CommandContext ctx) {
        if (ctx.argc() > 3) {
            throw RedisError.SYNTAX;
        }
        if (ctx.argc() == 3) {
            spopCount(ctx);
            return;
        }
        Bytes key = ctx.key(1);
        SetValue set = ctx.db().get(key, SetValue.class);
        if (set == null) {
            ctx.reply().nullBulk();
            return;
        }
        byte[] member = set.removeAt(randomIndex(set.size()));
        ctx.reply().bulk(member);
        ctx.propagateAs("SREM", ctx.arg(1), member); // the replica removes the member chosen here
        popped(ctx, key, set, 1);
    }

    /** Events after a pop: "spop", then "del" when the set is gone. */
    private static void popped(CommandContext ctx, Bytes key, SetValue set, long count) {
        ctx.notifyEvent(KeyspaceEvents.SET, "spop", key);
        SetCommands.deleteIfEmpty(ctx, key, set);
        ctx.signalModified(key);
        ctx.dirty(count);
    }

    private void spopCount(CommandContext ctx) {
        Long parsed = Numbers.parseLongStrict(ctx.arg(2));
        if (parsed == null || parsed < 0) {
            throw RedisError.NOT_POSITIVE;
        }
        long count = parsed;
        Bytes key = ctx.key(1);
        SetValue set = ctx.db().get(key, SetValue.class);
        if (set == null || count == 0) {
            ctx.reply().set(0);
            return;
        }
        int size = set.size();
        if (count >= size) {
            SetCommands.writeMembers(ctx.reply(), set);
            while (!set.isEmpty()) {
                set.removeAt(set.size() - 1);
            }
            popped(ctx, key, set, size);
            boolean lazy = ctx.engine().config().get("lazyfree-lazy-server-del").equals("yes");
            ctx.propagateAs(lazy ? "UNLINK" : "DEL", ctx.arg(1)); // the whole set went
            return;
        }
        ctx.reply().set((int) count);
        for (long i = 0; i < count; i++) {
            byte[] member = set.removeAt(randomIndex(set.size()));
            ctx.reply().bulk(member);
            ctx.alsoPropagate("SREM", ctx.arg(1), member); // one SREM per member, as Redis 7.0 replicates them
        }
        ctx.preventPropagation();
        popped(ctx, key, set, count);
    }

    private void srandmember(CommandContext ctx) {
        if (ctx.argc() > 3) {
            throw RedisError.SYNTAX;
        }
        if (ctx.argc() == 2) {
            SetValue set = SetCommands.readSet(ctx, ctx.key(1));
            if (set == null) {
                ctx.reply().nullBulk();
            } else {
                ctx.reply().bulk(set.memberAt(randomIndex(set.size())));
            }
            return;
        }
        long count = ctx.longArg(2);
        if (count == Long.MIN_VALUE) {
            throw SRANDMEMBER_RANGE;
        }
        SetValue set = SetCommands.readSet(ctx, ctx.key(1));
        if (set == null || count == 0) {
            ctx.reply().emptyArray();
            return;
        }
        int size = set.size();
        if (count < 0) {
            // A negative count allows repeats: -count independent picks.
            long picks = -count;
            if (picks > Integer.MAX_VALUE) {
                throw RedisError.NOT_INTEGER; // a reply that long could never be sent anyway
            }
            ctx.reply().array((int) picks);
            for (long i = 0; i < picks; i++) {
                ctx.reply().bulk(set.memberAt(randomIndex(size)));
            }
            return;
        }
        if (count >= size) {
            ctx.reply().array(size);
            set.forEach(ctx.reply()::bulk);
            return;
        }
        ctx.reply().array((int) count);
        for (int index : distinctIndexes(size, (int) count)) {
            ctx.reply().bulk(set.memberAt(index));
        }
    }

    /** {@code count} different positions in [0, size), count < size. */
    private static int[] distinctIndexes(int size, int count) {
        int[] out = new int[count];
        if (count * 3L > size) {
            int[] all = new int[size];
            for (int i = 0; i < size; i++) {
                all[i] = i;
            }
            for (int i = 0; i < count; i++) {
                int j = i + randomIndex(size - i);
                int t = all[i];
                all[i] = all[j];
                all[j] = t;
                out[i] = all[i];
            }
            return out;
        }
        Set<Integer> seen = new HashSet<>();
        int n = 0;
        while (n < count) {
            int candidate = randomIndex(size);
            if (seen.add(candidate)) {
                out[n++] = candidate;
            }
        }
        return out;
    }
}
