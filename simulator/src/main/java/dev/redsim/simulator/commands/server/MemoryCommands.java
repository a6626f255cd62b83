package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.scripting.Scripting;

/**
 * MEMORY STATS, PURGE, MALLOC-STATS and HELP (object.c; MEMORY USAGE is with the keys). STATS reports the
 * engine's used_memory estimate (decision 0011) in Redis 7.0's fields and order; the simulator has no allocator of
 * Redis's, so the allocator figures equal the logical ones (no fragmentation) and MALLOC-STATS answers as a Redis
 * built without jemalloc does. MEMORY DOCTOR is not offered: its report reads the allocator's resident sizes.
 */
public final class MemoryCommands implements CommandFamily {
    private static final String[] HELP = {
        "MEMORY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "DOCTOR",
        "    Return memory problems reports.",
        "MALLOC-STATS",
        "    Return internal statistics report from the memory allocator.",
        "PURGE",
        "    Attempt to purge dirty pages for reclamation by the allocator.",
        "STATS",
        "    Return information about the memory usage of the server.",
        "USAGE <key> [SAMPLES <count>]",
        "    Return memory in bytes used by <key> and its value. Nested values are",
        "    sampled up to <count> times (default: 5, 0 means sample all).",
        "HELP",
        "    Prints this help.",
    };
    /** What Redis counts for an empty function library dict (functions.caches of a fresh server). */
    private static final long FUNCTIONS_BASE = 200;
    private static final int ROBJ = 16;
    private static final int DICT_ENTRY = 24;

    private final Scripting scripting;

    public MemoryCommands(Scripting scripting) {
        this.scripting = scripting;
    }

    @Override
    public void register(CommandTable t) {
        t.handler("memory|stats", this::stats);
        t.handler("memory|purge", ctx -> ctx.reply().ok());
        t.handler("memory|malloc-stats", ctx -> ctx.reply().bulk("Stats not supported for the current allocator"));
        t.handler("memory|help", this::help);
    }

    private void help(CommandContext ctx) {
        ctx.reply().array(HELP.length);
        for (String line : HELP) {
            ctx.reply().simple(line);
        }
    }

    /** getMemoryOverheadData and memoryCommand's STATS reply: 27 fields and one map per database that has keys. */
    private void stats(CommandContext ctx) {
        Engine engine = ctx.engine();
        long total = engine.usedMemory();
        long peak = engine.usedMemoryPeak();
        long startup = Engine.STARTUP_MEMORY;
        long clients = engine.clientsMemory();
        long luaCaches = scripting.cachedScriptBytes();
        long functionsCaches = FUNCTIONS_BASE + scripting.functions().codeBytes();
        long overhead = startup + clients + luaCaches + functionsCaches;
        long keys = 0;
        int databasesWithKeys = 0;
        for (Database db : engine.databases()) {
            if (db.size() > 0) {
                databasesWithKeys++;
                keys += db.size();
                overhead += mainTable(db) + expiresTable(db);
            }
        }
        long dataset = Math.max(0, total - overhead);
        long net = total - startup;
        Reply r = ctx.reply();
        r.map(27 + databasesWithKeys);
        field(r, "peak.allocated", peak);
        field(r, "total.allocated", total);
        field(r, "startup.allocated", startup);
        field(r, "replication.backlog", 0);
        field(r, "clients.slaves", 0);
        field(r, "clients.normal", clients);
        field(r, "cluster.links", 0);
        field(r, "aof.buffer", 0);
        field(r, "lua.caches", luaCaches);
        field(r, "functions.caches", functionsCaches);
        for (Database db : engine.databases()) {
            if (db.size() > 0) {
                r.bulk("db." + db.id());
                r.map(3);
                field(r, "overhead.hashtable.main", mainTable(db));
                field(r, "overhead.hashtable.expires", expiresTable(db));
                field(r, "overhead.hashtable.slot-to-keys", 0);
            }
        }
        field(r, "overhead.total", overhead);
        field(r, "keys.count", keys);
        field(r, "keys.bytes-per-key", keys == 0 ? 0 : net / keys);
        field(r, "dataset.bytes", dataset);
        ratio(r, "dataset.percentage", net <= 0 ? 0 : (float) dataset * 100 / net);
        ratio(r, "peak.percentage", peak <= 0 ? 0 : (float) total * 100 / peak);
        field(r, "allocator.allocated", total);
        field(r, "allocator.active", total);
        field(r, "allocator.resident", total);
        ratio(r, "allocator-fragmentation.ratio", 1);
        field(r, "allocator-fragmentation.bytes", 0);
        ratio(r, "allocator-rss.ratio", 1);
        field(r, "allocator-rss.bytes", 0);
        ratio(r, "rss-overhead.ratio", 1);
        field(r, "rss-overhead.bytes", 0);
        ratio(r, "fragmentation", 1);
        field(r, "fragmentation.bytes", 0);
    }

    /** The keyspace dict: an entry and an robj per key, and a pointer per bucket. */
    private static long mainTable(Database db) {
        return (long) db.size() * (DICT_ENTRY + ROBJ) + 8 * buckets(db.size());
    }

    private static long expiresTable(Database db) {
        return db.expiresCount() == 0 ? 0 : (long) db.expiresCount() * DICT_ENTRY + 8 * buckets(db.expiresCount());
    }

    private static long buckets(long n) {
        long slots = 4;
        while (slots < n) {
            slots <<= 1;
        }
        return slots;
    }

    private static void field(Reply r, String name, long value) {
        r.bulk(name);
        r.integer(value);
    }

    /** Redis computes these as floats and replies them as doubles. */
    private static void ratio(Reply r, String name, float value) {
        r.bulk(name);
        r.doubleValue(value);
    }
}
