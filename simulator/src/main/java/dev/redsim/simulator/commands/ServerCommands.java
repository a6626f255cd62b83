package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.RedisError;
import dev.redsim.simulator.keyspace.Database;

import static dev.redsim.simulator.command.CommandSpec.command;

/** Server administration commands (server.c, db.c flush/swap, config.c, debug.c). */
public final class ServerCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.add(command("dbsize", 1).flags("readonly fast").group("server")
                .summary("Return the number of keys in the selected database")
                .handler(ctx -> ctx.reply().integer(ctx.db().size())).build());
        t.add(command("flushdb", -1).flags("write").group("server")
                .summary("Remove all keys from the current database").handler(this::flushdb).build());
        t.add(command("flushall", -1).flags("write").group("server")
                .summary("Remove all keys from all databases").handler(this::flushall).build());
    }

    /** FLUSHDB/FLUSHALL take an optional ASYNC or SYNC; anything else is a syntax error. */
    private static void checkFlushMode(CommandContext ctx) {
        if (ctx.argc() > 2 || (ctx.argc() == 2 && !ctx.is(1, "async") && !ctx.is(1, "sync"))) {
            throw RedisError.SYNTAX;
        }
    }

    private void flushdb(CommandContext ctx) {
        checkFlushMode(ctx);
        Database db = ctx.db();
        ctx.dirty(db.size());
        db.clear();
        ctx.reply().ok();
    }

    private void flushall(CommandContext ctx) {
        checkFlushMode(ctx);
        for (Database db : ctx.engine().databases()) {
            ctx.dirty(db.size());
            db.clear();
        }
        ctx.reply().ok();
    }
}
