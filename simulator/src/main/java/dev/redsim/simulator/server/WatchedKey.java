package dev.redsim.simulator.server;

import dev.redsim.simulator.keyspace.Bytes;

/**
 * One key one client WATCHes in one database. The same object sits in the client's own list (to release
 * everything at once) and in the engine's per-key list (to find the watchers when the key changes).
 */
public final class WatchedKey {
    private final ClientConnection client;
    private final int db;
    private final Bytes key;
    /**
     * The key had already expired (but was still stored) when WATCH came: its later removal by expiry is no
     * logical change, so it must not abort the transaction (Redis 7.0's watchedKey.expired).
     */
    private boolean expiredAtWatch;

    public WatchedKey(ClientConnection client, int db, Bytes key, boolean expiredAtWatch) {
        this.client = client;
        this.db = db;
        this.key = key;
        this.expiredAtWatch = expiredAtWatch;
    }

    public ClientConnection client() {
        return client;
    }

    public int db() {
        return db;
    }

    public Bytes key() {
        return key;
    }

    public boolean expiredAtWatch() {
        return expiredAtWatch;
    }

    public void expiredAtWatch(boolean value) {
        this.expiredAtWatch = value;
    }
}
