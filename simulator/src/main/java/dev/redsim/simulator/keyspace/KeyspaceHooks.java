package dev.redsim.simulator.keyspace;

/** What a database tells the engine about: keys that expire (notifications, WATCH) and reads (stats). */
public interface KeyspaceHooks {
    /** A key was removed because its time passed (lazily on access or by the active sweep). */
    void expired(Database db, Bytes key);

    /** A read found no key (Redis's lookupKeyRead miss), for the "keymiss" keyspace event. */
    default void missed(Database db, Bytes key) {
    }

    /** A key was created (Redis's dbAdd), for the "new" keyspace event. */
    default void added(Database db, Bytes key) {
    }

    /** A lookup touched a value (Redis's lookupKey without NOTOUCH): the LFU counter follows accesses. */
    default void accessed(RedisValue value) {
    }

    KeyspaceHooks NONE = (db, key) -> { };
}
