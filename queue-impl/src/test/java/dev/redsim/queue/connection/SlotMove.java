package dev.redsim.queue.connection;

/**
 * One hash slot moving from its master to another while a test runs traffic on it, step by step as redis-cli
 * --cluster reshard moves it: opened (the target imports, the source migrates), key batches moved, then finished (the
 * rest moved, the target owns the slot on every node). Between the steps clients meet -ASK and -TRYAGAIN.
 */
interface SlotMove {
    /** Moves up to {@code count} of the slot's keys still on the source; returns how many it moved. */
    int migrateKeys(int count);

    /** Moves every key left and gives the slot to the target on every node. */
    void finish();

    /** host:port of the master that gave the slot away, and of the one that takes it. */
    String source();

    String target();
}
