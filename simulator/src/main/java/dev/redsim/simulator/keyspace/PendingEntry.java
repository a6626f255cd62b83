package dev.redsim.simulator.keyspace;

/**
 * An entry delivered to a consumer of a group and not yet acknowledged (Redis's streamNACK): one object shared by
 * the group's pending list and its consumer's.
 */
public final class PendingEntry {
    private StreamConsumer consumer;
    private long deliveredAt;
    private long deliveries;

    public PendingEntry(StreamConsumer consumer, long deliveredAt, long deliveries) {
        this.consumer = consumer;
        this.deliveredAt = deliveredAt;
        this.deliveries = deliveries;
    }

    public StreamConsumer consumer() {
        return consumer;
    }

    public void consumer(StreamConsumer consumer) {
        this.consumer = consumer;
    }

    /** When it was last delivered (epoch ms): its idle time counts from here. */
    public long deliveredAt() {
        return deliveredAt;
    }

    public void deliveredAt(long epochMillis) {
        this.deliveredAt = epochMillis;
    }

    public long deliveries() {
        return deliveries;
    }

    public void deliveries(long count) {
        this.deliveries = count;
    }
}
