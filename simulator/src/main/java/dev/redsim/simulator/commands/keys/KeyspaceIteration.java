package dev.redsim.simulator.commands.keys;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.common.ScanOptions;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.util.GlobMatcher;
import dev.redsim.simulator.util.ScanCursor;
import dev.redsim.simulator.util.ScanSnapshot;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** The commands that walk the whole keyspace: KEYS, SCAN and RANDOMKEY. Keys past their TTL never show. */
public final class KeyspaceIteration implements CommandFamily {
    /** Per database, the ordering of its keys taken when a scan last started (see {@link ScanSnapshot}). */
    private final Map<Database, ScanSnapshot<Bytes>> snapshots = new IdentityHashMap<>();

    @Override
    public void register(CommandTable t) {
        t.handler("keys", this::keys);
        t.handler("scan", this::scan);
        t.handler("randomkey", this::randomkey);
    }

    private static boolean live(Database db, Bytes key) {
        long when = db.expireAt(key);
        return when == -1 || !db.expired(when);
    }

    private void keys(CommandContext ctx) {
        Database db = ctx.db();
        byte[] pattern = ctx.arg(1);
        boolean all = pattern.length == 1 && pattern[0] == '*';
        List<byte[]> found = new ArrayList<>();
        for (Bytes key : db.keys()) {
            if ((all || GlobMatcher.matches(pattern, key.bytes(), false)) && live(db, key)) {
                found.add(key.bytes());
            }
        }
        ctx.reply().bulkArray(found);
    }

    private void scan(CommandContext ctx) {
        long cursor = ScanCursor.parse(ctx.arg(1));
        ScanOptions options = ScanOptions.parse(ctx, 2, true);
        Database db = ctx.db();
        ScanSnapshot<Bytes> snapshot = snapshots.get(db);
        if (cursor == 0 || snapshot == null) {
            snapshot = ScanSnapshot.of(db.keys(), Bytes::bytes);
            snapshots.put(db, snapshot);
        }
        List<Bytes> visited = new ArrayList<>();
        // Expired keys are removed as they are met (peek), as Redis's scan does; deleted ones are skipped.
        long next = snapshot.page(cursor, options.count(), key -> db.peek(key) != null, visited);
        if (next == 0) {
            snapshots.remove(db); // the walk is over: let the ordering go
        }
        List<byte[]> keys = new ArrayList<>(visited.size());
        for (Bytes key : visited) {
            if (options.matches(key.bytes()) && typeMatches(options, db, key)) {
                keys.add(key.bytes());
            }
        }
        ctx.reply().array(2);
        ctx.reply().bulk(Long.toUnsignedString(next));
        ctx.reply().bulkArray(keys);
    }

    private static boolean typeMatches(ScanOptions options, Database db, Bytes key) {
        if (options.type() == null) {
            return true;
        }
        RedisValue value = db.peek(key);
        return value != null && options.type().equalsIgnoreCase(value.typeName());
    }

    private void randomkey(CommandContext ctx) {
        Database db = ctx.db();
        while (db.size() > 0) {
            int skip = ThreadLocalRandom.current().nextInt(db.size());
            Iterator<Bytes> it = db.keys().iterator();
            for (int i = 0; i < skip; i++) {
                it.next();
            }
            Bytes key = it.next();
            if (db.peek(key) != null) {
                ctx.reply().bulk(key.bytes());
                return;
            }
        }
        ctx.reply().nullBulk();
    }
}
