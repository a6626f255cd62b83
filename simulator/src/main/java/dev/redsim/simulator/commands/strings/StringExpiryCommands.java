package dev.redsim.simulator.commands.strings;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.StringValue;

/** GETEX: read a string and change its time to live in the same step (t_string.c getexCommand). */
public final class StringExpiryCommands implements CommandFamily {

    /** Which GETEX option was given; only one kind may appear (a repeated EX, PX, ... keeps the last value). */
    private enum Option { NONE, EX, PX, EXAT, PXAT, PERSIST }

    @Override
    public void register(CommandTable t) {
        t.handler("getex", this::getex);
    }

    private void getex(CommandContext ctx) {
        Option option = Option.NONE;
        byte[] expire = null;
        for (int j = 2; j < ctx.argc(); j++) {
            boolean hasNext = j + 1 < ctx.argc();
            Option next = optionAt(ctx, j);
            boolean compatible = option == Option.NONE || option == next;
            if (next == Option.PERSIST && compatible) {
                option = next;
            } else if (next != Option.NONE && next != Option.PERSIST && compatible && hasNext) {
                option = next;
                expire = ctx.arg(++j);
            } else {
                throw RedisError.SYNTAX;
            }
        }
        Bytes key = ctx.key(1);
        Database db = ctx.db();
        StringValue value = db.getForRead(key, StringValue.class);
        if (value == null) {
            ctx.reply().nullBulk();
            return;
        }
        long when = expire == null ? 0 : expireMillis(ctx, expire, option);
        StringCommands.reply(ctx, value);
        if ((option == Option.EXAT || option == Option.PXAT) && when <= ctx.now()) {
            // An absolute time already past deletes the key, as Redis does.
            db.delete(key);
            changed(ctx, key, "del");
            boolean lazy = ctx.engine().config().get("lazyfree-lazy-expire").equals("yes");
            ctx.propagateAs(lazy ? "UNLINK" : "DEL", ctx.arg(1));
        } else if (expire != null) {
            db.setExpire(key, when);
            changed(ctx, key, "expire");
            ctx.propagateAs("PEXPIREAT", ctx.arg(1), when);
        } else if (option == Option.PERSIST && db.persist(key)) {
            changed(ctx, key, "persist");
            ctx.propagateAs("PERSIST", ctx.arg(1));
        }
    }

    private static Option optionAt(CommandContext ctx, int j) {
        if (ctx.is(j, "ex")) {
            return Option.EX;
        } else if (ctx.is(j, "px")) {
            return Option.PX;
        } else if (ctx.is(j, "exat")) {
            return Option.EXAT;
        } else if (ctx.is(j, "pxat")) {
            return Option.PXAT;
        } else if (ctx.is(j, "persist")) {
            return Option.PERSIST;
        }
        return Option.NONE;
    }

    /** The absolute expiry in ms, with Redis's checks (positive, no overflow) and its error text. */
    private static long expireMillis(CommandContext ctx, byte[] arg, Option option) {
        Long parsed = Numbers.parseLongStrict(arg);
        if (parsed == null) {
            throw RedisError.NOT_INTEGER;
        }
        long ms = parsed;
        boolean seconds = option == Option.EX || option == Option.EXAT;
        if (ms <= 0 || (seconds && ms > Long.MAX_VALUE / 1000)) {
            throw RedisError.invalidExpireTime("getex");
        }
        if (seconds) {
            ms *= 1000;
        }
        if (option == Option.EX || option == Option.PX) {
            ms += ctx.now();
        }
        if (ms <= 0) {
            throw RedisError.invalidExpireTime("getex");
        }
        return ms;
    }

    private static void changed(CommandContext ctx, Bytes key, String event) {
        ctx.signalModified(key);
        ctx.notifyEvent(KeyspaceEvents.GENERIC, event, key);
        ctx.dirty(1);
    }
}
