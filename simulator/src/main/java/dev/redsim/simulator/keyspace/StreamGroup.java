package dev.redsim.simulator.keyspace;

import java.util.Map;
import java.util.TreeMap;

/**
 * A consumer group (Redis's streamCG): the last ID delivered to it, how many entries it has read (-1 when that is
 * not known), the entries delivered and not acknowledged, and its consumers in name order (Redis keeps them in a
 * radix tree, so they list in byte order).
 */
public final class StreamGroup {
    /** SCG_INVALID_ENTRIES_READ: the group's read counter is not known. */
    public static final long UNKNOWN_ENTRIES_READ = -1;

    private final Bytes name;
    private StreamId lastId;
    private long entriesRead;
    private final RaxMap<PendingEntry> pending = new RaxMap<>();
    private final TreeMap<Bytes, StreamConsumer> consumers = new TreeMap<>();

    public StreamGroup(Bytes name, StreamId lastId, long entriesRead) {
        this.name = name;
        this.lastId = lastId;
        this.entriesRead = entriesRead;
    }

    public Bytes name() {
        return name;
    }

    public StreamId lastId() {
        return lastId;
    }

    public void lastId(StreamId id) {
        this.lastId = id;
    }

    public long entriesRead() {
        return entriesRead;
    }

    public void entriesRead(long count) {
        this.entriesRead = count;
    }

    /** The group's pending entries list (PEL), by ID. */
    public RaxMap<PendingEntry> pending() {
        return pending;
    }

    public TreeMap<Bytes, StreamConsumer> consumers() {
        return consumers;
    }

    public StreamConsumer consumer(Bytes consumerName) {
        return consumers.get(consumerName);
    }

    /** streamCreateConsumer: a new consumer, seen now. */
    public StreamConsumer createConsumer(Bytes consumerName, long now) {
        StreamConsumer consumer = new StreamConsumer(consumerName, now);
        consumers.put(consumerName, consumer);
        return consumer;
    }

    /** streamDelConsumer: the consumer goes, and its pending entries leave the group's list. Returns how many. */
    public long deleteConsumer(StreamConsumer consumer) {
        long count = consumer.pending().size();
        for (StreamId id : consumer.pending().view().keySet()) {
            pending.remove(id);
        }
        consumers.remove(consumer.name());
        return count;
    }

    /** A deep copy (COPY): pending entries stay shared between the copied group and its copied consumers. */
    StreamGroup copy() {
        StreamGroup copy = new StreamGroup(name, lastId, entriesRead);
        Map<StreamConsumer, StreamConsumer> copied = new java.util.IdentityHashMap<>();
        for (StreamConsumer consumer : consumers.values()) {
            StreamConsumer c = new StreamConsumer(consumer.name(), consumer.seenAt());
            copied.put(consumer, c);
            copy.consumers.put(c.name(), c);
        }
        for (Map.Entry<StreamId, PendingEntry> e : pending.view().entrySet()) {
            PendingEntry original = e.getValue();
            StreamConsumer owner = copied.get(original.consumer());
            PendingEntry nack = new PendingEntry(owner, original.deliveredAt(), original.deliveries());
            copy.pending.put(e.getKey(), nack);
            owner.pending().put(e.getKey(), nack);
        }
        return copy;
    }
}
