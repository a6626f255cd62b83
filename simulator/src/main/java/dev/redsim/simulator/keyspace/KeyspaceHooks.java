package dev.redsim.simulator.keyspace;

/** What a database tells the engine about: keys that expire (notifications, WATCH) and reads (stats). */
public interface KeyspaceHooks {
    /** A key was removed because its time passed (lazily on access or by the active sweep). */
    void expired(Database db, Bytes key);

    KeyspaceHooks NONE = (db, key) -> { };
}
