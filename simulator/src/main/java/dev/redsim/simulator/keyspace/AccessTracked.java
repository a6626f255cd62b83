package dev.redsim.simulator.keyspace;

/**
 * When a value was last read or written, for OBJECT IDLETIME. Redis keeps this in each object's lru field;
 * keeping it in the value here too spares the keyspace a second map lookup on every command.
 */
public abstract class AccessTracked {
    private long accessedAt;
    /** The LFU counter RESTORE ... FREQ gave, for OBJECT FREQ; -1: not given (the simulator counts no accesses). */
    private int frequency = -1;

    public final long accessedAt() {
        return accessedAt;
    }

    public final void accessedAt(long epochMillis) {
        this.accessedAt = epochMillis;
    }

    public final int frequency() {
        return frequency;
    }

    public final void frequency(int counter) {
        this.frequency = counter;
    }
}
