package dev.redsim.simulator.keyspace;

/** A consumer of a group (Redis's streamConsumer): its name, when it was last seen, and what it holds pending. */
public final class StreamConsumer {
    private final Bytes name;
    private long seenAt;
    private final RaxMap<PendingEntry> pending = new RaxMap<>();

    public StreamConsumer(Bytes name, long seenAt) {
        this.name = name;
        this.seenAt = seenAt;
    }

    public Bytes name() {
        return name;
    }

    /** When it last read or claimed (epoch ms), for XINFO CONSUMERS' idle. */
    public long seenAt() {
        return seenAt;
    }

    public void seenAt(long epochMillis) {
        this.seenAt = epochMillis;
    }

    /** Its pending entries, by ID; the same objects as in the group's pending list. */
    public RaxMap<PendingEntry> pending() {
        return pending;
    }
}
