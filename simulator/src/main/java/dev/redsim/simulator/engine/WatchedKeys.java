package dev.redsim.simulator.engine;

import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.MultiState;
import dev.redsim.simulator.server.WatchedKey;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who watches which key (Redis's per-db watched_keys dict): lets a change to a key mark every watcher's
 * transaction as failed (CLIENT_DIRTY_CAS) in O(watchers of that key).
 */
final class WatchedKeys {
    private final Database[] databases;
    /** Per database: key to the watch entries of the clients watching it. */
    private final List<Map<Bytes, List<WatchedKey>>> byDb;
    /** Number of entries in all maps, so a write pays nothing when nobody watches anything. */
    private int total;

    WatchedKeys(Database[] databases) {
        this.databases = databases;
        this.byDb = new ArrayList<>(databases.length);
        for (int i = 0; i < databases.length; i++) {
            byDb.add(new HashMap<>());
        }
    }

    /** WATCH of one key in the client's database; watching a key twice is watching it once. */
    void watch(ClientConnection client, Bytes key) {
        MultiState state = client.multiState();
        int db = client.db();
        for (WatchedKey existing : state.watched()) {
            if (existing.db() == db && existing.key().equals(key)) {
                return;
            }
        }
        WatchedKey entry = new WatchedKey(client, db, key, isLogicallyExpired(databases[db], key));
        state.watched().add(entry);
        byDb.get(db).computeIfAbsent(key, k -> new ArrayList<>(2)).add(entry);
        total++;
    }

    /** Releases every key the client watches (UNWATCH, EXEC, DISCARD, RESET, disconnect). */
    void unwatchAll(ClientConnection client) {
        List<WatchedKey> watched = client.multiState().watched();
        for (WatchedKey entry : watched) {
            Map<Bytes, List<WatchedKey>> keys = byDb.get(entry.db());
            List<WatchedKey> watchers = keys.get(entry.key());
            if (watchers != null) {
                watchers.remove(entry);
                total--;
                if (watchers.isEmpty()) {
                    keys.remove(entry.key());
                }
            }
        }
        watched.clear();
    }

    /**
     * Redis's touchWatchedKey: the key changed, so its watchers' transactions fail, in the order they started
     * watching. A key that had already expired when it was watched is the exception: its removal changes
     * nothing a client could have read, so that watcher is skipped; and when such a key is still stored and
     * expired, Redis 7.0 stops at that watcher and leaves it and every later watcher of the key untouched.
     */
    void touch(int db, Bytes key) {
        if (total == 0) {
            return;
        }
        List<WatchedKey> watchers = byDb.get(db).get(key);
        if (watchers == null) {
            return;
        }
        Database database = databases[db];
        boolean stored = database.keys().contains(key);
        boolean storedButExpired = stored && isLogicallyExpired(database, key);
        for (WatchedKey entry : List.copyOf(watchers)) {
            if (entry.expiredAtWatch()) {
                if (storedButExpired) {
                    return;
                }
                entry.expiredAtWatch(false); // gone now: from here on it is an ordinary missing key
                if (!stored) {
                    continue;
                }
                // Stored and live: a command wrote over the expired key without looking it up first. In Redis
                // every write looks the key up, which removes it (clearing this flag) before the write dirties.
            }
            markDirty(entry.client());
        }
    }

    /**
     * Redis's touchAllWatchedKeysInDb: a database is emptied (FLUSHDB, FLUSHALL) or, with {@code replacedWith}
     * not null, gets another database's contents (SWAPDB). Only watched keys that exist on either side count as
     * changed; expired-at-watch keys that stay gone or stay expired do not.
     */
    void touchAllInDb(int emptied, Integer replacedWith) {
        if (total == 0 || byDb.get(emptied).isEmpty()) {
            return;
        }
        Database before = databases[emptied];
        Database after = replacedWith == null ? null : databases[replacedWith];
        List<ClientConnection> dirty = new ArrayList<>();
        for (Map.Entry<Bytes, List<WatchedKey>> e : byDb.get(emptied).entrySet()) {
            Bytes key = e.getKey();
            boolean existedBefore = before.keys().contains(key);
            boolean existsAfter = after != null && after.keys().contains(key);
            if (!existedBefore && !existsAfter) {
                continue;
            }
            for (WatchedKey entry : e.getValue()) {
                if (entry.expiredAtWatch()) {
                    if (!existsAfter) {
                        entry.expiredAtWatch(false); // an expired key is now deleted: no logical change
                        continue;
                    }
                    if (isLogicallyExpired(after, key)) {
                        continue; // still expired
                    }
                } else if (!existedBefore && isLogicallyExpired(after, key)) {
                    entry.expiredAtWatch(true); // a missing key became an expired one: no logical change
                    continue;
                }
                dirty.add(entry.client());
            }
        }
        dirty.forEach(this::markDirty);
    }

    /** Redis's isWatchedKeyExpired, checked by EXEC: a watched key has expired since it was watched. */
    boolean anyExpiredSinceWatch(ClientConnection client) {
        for (WatchedKey entry : client.multiState().watched()) {
            if (!entry.expiredAtWatch() && isLogicallyExpired(databases[entry.db()], entry.key())) {
                return true;
            }
        }
        return false;
    }

    /** Marks the transaction failed; its watches are then pointless, so they are released at once. */
    private void markDirty(ClientConnection client) {
        client.multiState().markDirtyCas();
        unwatchAll(client);
    }

    /** Stored, with a time to live that has passed, but not yet removed (Redis's keyIsExpired). */
    private static boolean isLogicallyExpired(Database db, Bytes key) {
        long at = db.expireAt(key);
        return at >= 0 && db.expired(at) && db.keys().contains(key);
    }

    /** Number of (client, key) watch entries, for tests and INFO-like figures. */
    int size() {
        return total;
    }
}
