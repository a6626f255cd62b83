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

    private long accessedAt;
    /** The LFU counter (0..255), logarithmic in the accesses (Redis's 8 low bits of lru under LFU). */
    private int lfuCounter = LFU_INITIAL;
    /** When the counter was last decremented, in minutes on 16 bits (Redis's ldt); -1 until stored. */
    private int lfuMinutes = -1;
    /** The bytes the keyspace counted for this value when it last measured it (used_memory). */
    private long accountedBytes;

    public final long accessedAt() {
        return accessedAt;
    }

    public final void accessedAt(long epochMillis) {
        this.accessedAt = epochMillis;
    }

    /** The stored counter, without decay (see {@link #lfuDecayed}). */
    public final int frequency() {
        return lfuCounter;
    }

    /** Sets the counter now (RESTORE ... FREQ), as Redis's objectSetLRUOrLFU. */
    public final void frequency(int counter, long epochMillis) {
        this.lfuCounter = counter;
        this.lfuMinutes = minutes(epochMillis);
    }

    /** A value stored for the first time starts its LFU clock (Redis sets it when it creates the object). */
    final void startLfuClock(long epochMillis) {
        if (lfuMinutes < 0) {
            lfuMinutes = minutes(epochMillis);
        }
    }

    /** A value that replaces another under the same key keeps its LFU data (Redis's dbOverwrite). */
    final void inheritLfu(AccessTracked old) {
        this.lfuCounter = old.lfuCounter;
        this.lfuMinutes = old.lfuMinutes;
    }

    /** Redis's LFUDecrAndReturn: the counter less one for each decay period (minutes) since it was last touched. */
    public final int lfuDecayed(long epochMillis, long decayMinutes) {
        int since = lfuMinutes < 0 ? 0 : elapsedMinutes(lfuMinutes, minutes(epochMillis));
        long periods = decayMinutes > 0 ? since / decayMinutes : 0;
        return periods == 0 ? lfuCounter : (int) Math.max(0, lfuCounter - periods);
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
        lfuCounter = counter;
        lfuMinutes = minutes(epochMillis);
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
