package dev.redsim.simulator.keyspace;

/**
 * What Redis keeps in each object's lru field, and what the keyspace accounts for it. Redis keeps either the LRU
 * clock or the LFU data there, by policy; here both are kept (the LRU time also serves OBJECT IDLETIME), so a
 * change of policy finds sensible data. Keeping them in the value spares the keyspace a second map lookup on
 * every command.
 */
public abstract class AccessTracked {
    /** Redis's LFU_INIT_VAL: the counter of a new key, so that it is not evicted before it had a chance. */
    public static final int LFU_INITIAL = 5;

    private static final int COUNTER_MASK = 0xff;
    private static final int MINUTES_SHIFT = 8;
    private static final int MINUTES_MASK = 0x1ffff;
    private static final int LFU_MASK = (MINUTES_MASK << MINUTES_SHIFT) | COUNTER_MASK;
    /** The lowest of the bits left to a value type for its own flags ({@link #flag}, {@link #setFlag}). */
    static final int FIRST_FLAG = 1 << 25;

    private long accessedAt;
    /**
     * Three things in one int, so that a small string value takes 40 bytes of heap instead of 48 (a million keys are
     * a million values): the LFU counter (0..255, logarithmic in the accesses, Redis's 8 low bits of lru under LFU) in
     * bits 0-7; when the counter was last decremented, in minutes on 16 bits (Redis's ldt) plus one, 0 until stored,
     * in bits 8-24; and in bits 25-31 flags of the value type's own.
     */
    private int lfuAndFlags = LFU_INITIAL;
    /** The bytes the keyspace counted for this value when it last measured it (used_memory). */
    private long accountedBytes;

    private int lfuCounter() {
        return lfuAndFlags & COUNTER_MASK;
    }

    /** The minutes of the last decrement, -1 until stored. */
    private int lfuMinutes() {
        return ((lfuAndFlags >>> MINUTES_SHIFT) & MINUTES_MASK) - 1;
    }

    private void lfu(int counter, int minutes) {
        lfuAndFlags = (lfuAndFlags & ~LFU_MASK) | ((minutes + 1) << MINUTES_SHIFT) | counter;
    }

    /** One of the value type's flags (a bit at or above {@link #FIRST_FLAG}). */
    final boolean flag(int bit) {
        return (lfuAndFlags & bit) != 0;
    }

    final void setFlag(int bit) {
        lfuAndFlags |= bit;
    }

    public final long accessedAt() {
        return accessedAt;
    }

    public final void accessedAt(long epochMillis) {
        this.accessedAt = epochMillis;
    }

    /** The stored counter, without decay (see {@link #lfuDecayed}). */
    public final int frequency() {
        return lfuCounter();
    }

    /** Sets the counter now (RESTORE ... FREQ), as Redis's objectSetLRUOrLFU. */
    public final void frequency(int counter, long epochMillis) {
        lfu(counter, minutes(epochMillis));
    }

    /** A value stored for the first time starts its LFU clock (Redis sets it when it creates the object). */
    final void startLfuClock(long epochMillis) {
        if (lfuMinutes() < 0) {
            lfu(lfuCounter(), minutes(epochMillis));
        }
    }

    /** A value that replaces another under the same key keeps its LFU data (Redis's dbOverwrite). */
    final void inheritLfu(AccessTracked old) {
        lfu(old.lfuCounter(), old.lfuMinutes());
    }

    /** Redis's LFUDecrAndReturn: the counter less one for each decay period (minutes) since it was last touched. */
    public final int lfuDecayed(long epochMillis, long decayMinutes) {
        int stored = lfuMinutes();
        int since = stored < 0 ? 0 : elapsedMinutes(stored, minutes(epochMillis));
        long periods = decayMinutes > 0 ? since / decayMinutes : 0;
        return periods == 0 ? lfuCounter() : (int) Math.max(0, lfuCounter() - periods);
    }

    /**
     * Redis's updateLFU on an access: the decayed counter, then one more with probability 1 / ((counter - 5) *
     * logFactor + 1), so that it grows with the logarithm of the accesses and saturates at 255.
     */
    public final void lfuTouched(long epochMillis, long decayMinutes, long logFactor, double random) {
        int counter = lfuDecayed(epochMillis, decayMinutes);
        if (counter < 255) {
            double base = Math.max(0, counter - LFU_INITIAL);
            if (random < 1.0 / (base * logFactor + 1)) {
                counter++;
            }
        }
        lfu(counter, minutes(epochMillis));
    }

    private static int minutes(long epochMillis) {
        return (int) ((epochMillis / 1000 / 60) & 0xffff);
    }

    private static int elapsedMinutes(int then, int now) {
        return now >= then ? now - then : 65535 - then + now;
    }

    final long accountedBytes() {
        return accountedBytes;
    }

    final void accountedBytes(long bytes) {
        this.accountedBytes = bytes;
    }
}
