package dev.redsim.simulator.keyspace;

/**
 * What a database asks the engine (its clock) and tells it about: keys that expire (notifications, WATCH) and reads
 * (stats).
 */
public interface KeyspaceHooks {
    /** The time now (TTLs are counted from it). */
    long clockMillis();

    /**
     * The time keys expire against: the clock, except while a script runs (Redis's scriptTimeSnapshot: a key that
     * expires during a script stays visible to the script).
     */
    long expiryMillis();

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
}
