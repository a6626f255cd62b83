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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** The commands that walk the whole keyspace: KEYS, SCAN and RANDOMKEY. Keys past their TTL never show. */
public final class KeyspaceIteration implements CommandFamily {
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

    /**
     * SCAN as scanGenericCommand does it: Redis's dictScan over the database's buckets from the cursor until COUNT
     * keys came (or ten times COUNT buckets passed), O(COUNT) whatever the keyspace's size; then the keys gathered
     * are filtered by MATCH, then TYPE, then expiry (an expired key met here is deleted, as Redis does).
     */
    private void scan(CommandContext ctx) {
        long cursor = ScanCursor.parse(ctx.arg(1));
        ScanOptions options = ScanOptions.parse(ctx, 2, true);
        Database db = ctx.db();
        List<Bytes> visited = new ArrayList<>();
        long next = db.scan(cursor, options.count(), visited::add);
        List<byte[]> keys = new ArrayList<>(visited.size());
        for (Bytes key : visited) {
            if (options.matches(key.bytes()) && typeMatches(options, db, key) && db.peek(key) != null) {
                keys.add(key.bytes());
            }
        }
        ctx.reply().array(2);
        ctx.reply().bulk(Long.toUnsignedString(next));
        ctx.reply().bulkArray(keys);
    }

    /**
     * The TYPE filter reads the key as lookupKeyReadWithFlags(LOOKUP_NOTOUCH) does: a keyspace hit or miss is counted
     * (and a miss reported as "keymiss"), an expired key is deleted, the access time is left alone.
     */
    private static boolean typeMatches(ScanOptions options, Database db, Bytes key) {
        if (options.type() == null) {
            return true;
        }
        RedisValue value = db.peekForRead(key);
        return value != null && options.type().equalsIgnoreCase(value.typeName());
    }

    /**
     * RANDOMKEY as dbRandomKey: a random bucket's key, O(1) on average; one found expired is deleted and another
     * drawn.
     */
    private void randomkey(CommandContext ctx) {
        Database db = ctx.db();
        while (true) {
            Bytes key = db.randomStoredKey(ThreadLocalRandom.current());
            if (key == null) {
                ctx.reply().nullBulk();
                return;
            }
            if (!db.expireIfNeeded(key)) {
                ctx.reply().bulk(key.bytes());
                return;
            }
        }
    }
}
