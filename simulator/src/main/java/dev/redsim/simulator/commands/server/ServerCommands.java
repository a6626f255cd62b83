package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.commands.keys.LazyFree;
import dev.redsim.simulator.keyspace.Database;

/** Server administration commands (server.c, db.c flush/swap, config.c, debug.c). */
public final class ServerCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("dbsize", ctx -> ctx.reply().integer(ctx.db().size()));
        t.handler("flushdb", this::flushdb);
        t.handler("flushall", this::flushall);
        t.handler("swapdb", this::swapdb);
        t.handler("time", this::time);
        t.handler("lastsave", ctx -> ctx.reply().integer(ctx.engine().lastSaveSeconds()));
        t.handler("save", this::save);
        t.handler("bgsave", this::bgsave);
        t.handler("shutdown", Shutdown::run);
    }

    /** SWAPDB index index: every client of one database now sees the other's keys. */
    private void swapdb(CommandContext ctx) {
        long first = ctx.longArg(1, new RedisError("ERR invalid first DB index"));
        long second = ctx.longArg(2, new RedisError("ERR invalid second DB index"));
        if ("yes".equals(ctx.engine().config().get("cluster-enabled"))) {
            throw new RedisError("ERR SWAPDB is not allowed in cluster mode"); // a cluster node has database 0 only
        }
        int count = ctx.engine().databaseCount();
        if (first < 0 || first >= count || second < 0 || second >= count) {
            throw RedisError.DB_INDEX_OUT_OF_RANGE;
        }
        if (first != second) {
            // Clients watching keys in either database will look at different data.
            ctx.engine().signalSwappedDbs((int) first, (int) second);
            Database a = ctx.engine().database((int) first);
            a.swapContents(ctx.engine().database((int) second));
            // Clients blocked on keys in either database may find them filled now (scanDatabaseForReadyKeys).
            ctx.engine().blockedClients().databaseChanged((int) first);
            ctx.engine().blockedClients().databaseChanged((int) second);
        }
        ctx.dirty(1);
        ctx.reply().ok();
    }

    /** TIME: seconds and microseconds of the engine's clock, which tests may freeze or move. */
    private void time(CommandContext ctx) {
        long micros = ctx.engine().time().micros();
        ctx.reply().array(2);
        ctx.reply().bulk(Long.toString(micros / 1_000_000));
        ctx.reply().bulk(Long.toString(micros % 1_000_000));
    }

    /** Nothing is written: a save only resets the change counter and the save time, as a real one would. */
    private void save(CommandContext ctx) {
        ctx.engine().markSaved();
        ctx.engine().stats().saves++;
        ctx.reply().ok();
    }

    private void bgsave(CommandContext ctx) {
        if (ctx.argc() > 2 || (ctx.argc() == 2 && !ctx.is(1, "schedule"))) {
            throw RedisError.SYNTAX;
        }
        ctx.engine().markSaved();
        ctx.engine().stats().saves++;
        ctx.reply().simple("Background saving started");
    }

    /** FLUSHDB/FLUSHALL take an optional ASYNC or SYNC; anything else is a syntax error. */
    private static void checkFlushMode(CommandContext ctx) {
        if (ctx.argc() > 2 || (ctx.argc() == 2 && !ctx.is(1, "async") && !ctx.is(1, "sync"))) {
            throw RedisError.SYNTAX;
        }
    }

    private void flushdb(CommandContext ctx) {
        checkFlushMode(ctx);
        ctx.forcePropagation(); // replicas empty theirs even when ours was empty already
        Database db = ctx.db();
        ctx.engine().signalFlushedDb(db.id());
        ctx.dirty(db.size());
        if (LazyFree.flushIsAsync(ctx)) {
            LazyFree.flushedAsync(ctx, db.size());
        }
        db.clear();
        ctx.engine().flushedDb(db.id());
        ctx.reply().ok();
    }

    private void flushall(CommandContext ctx) {
        checkFlushMode(ctx);
        ctx.forcePropagation();
        ctx.engine().signalFlushedAll();
        boolean async = LazyFree.flushIsAsync(ctx);
        for (Database db : ctx.engine().databases()) {
            ctx.dirty(db.size());
            if (async) {
                LazyFree.flushedAsync(ctx, db.size());
            }
            db.clear();
            ctx.engine().flushedDb(db.id());
        }
        ctx.reply().ok();
    }
}
