package dev.redsim.simulator.commands.streams;

import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.PendingEntry;
import dev.redsim.simulator.keyspace.StreamConsumer;
import dev.redsim.simulator.keyspace.StreamGroup;
import dev.redsim.simulator.keyspace.StreamId;
import dev.redsim.simulator.keyspace.StreamValue;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What reading through a consumer group does (streamReplyWithRange with a group, and the consumer's history):
 * new entries move the group's last delivered ID and read counter and become pending for the consumer; history
 * reads hand out the consumer's pending entries again.
 */
final class GroupReads {
    private GroupReads() {
    }

    /**
     * The consumer, looked up (which marks it seen, as streamLookupConsumer does) or created with the
     * "xgroup-createconsumer" event.
     */
    static StreamConsumer consumer(StreamGroup group, Bytes name, long now, Runnable created) {
        StreamConsumer consumer = group.consumer(name);
        if (consumer != null) {
            consumer.seenAt(now);
            return consumer;
        }
        consumer = group.createConsumer(name, now);
        created.run();
        return consumer;
    }

    /**
     * Delivers the entries from {@code start} on, at most {@code count} (0: all), to a consumer: each one past the
     * group's last ID advances it (and the read counter while it can be kept exact); unless {@code noAck}, each
     * becomes pending for the consumer, taken from whichever consumer had it before.
     */
    static List<Map.Entry<StreamId, byte[][]>> deliver(StreamValue stream, StreamGroup group, StreamConsumer consumer,
                                                       StreamId start, long count, boolean noAck, long now) {
        List<Map.Entry<StreamId, byte[][]>> delivered = new ArrayList<>();
        for (Map.Entry<StreamId, byte[][]> entry : stream.entries().tailMap(start, true).entrySet()) {
            if (count > 0 && delivered.size() == count) {
                break;
            }
            StreamId id = entry.getKey();
            if (id.greaterThan(group.lastId())) {
                if (group.entriesRead() != StreamGroup.UNKNOWN_ENTRIES_READ && !stream.hasTombstonesFrom(id)) {
                    group.entriesRead(group.entriesRead() + 1);
                } else if (stream.entriesAdded() != 0) {
                    group.entriesRead(stream.entriesAddedUpTo(id));
                }
                group.lastId(id);
            }
            delivered.add(entry);
            if (!noAck) {
                makePending(group, consumer, id, now);
            }
        }
        return delivered;
    }

    private static void makePending(StreamGroup group, StreamConsumer consumer, StreamId id, long now) {
        PendingEntry existing = group.pending().get(id);
        if (existing == null) {
            PendingEntry pending = new PendingEntry(consumer, now, 1);
            group.pending().put(id, pending);
            consumer.pending().put(id, pending);
            return;
        }
        existing.consumer().pending().remove(id);
        existing.consumer(consumer);
        existing.deliveredAt(now);
        existing.deliveries(1);
        consumer.pending().put(id, existing);
    }

    /**
     * The consumer's pending entries from {@code start} on, at most {@code count} (0: all), each delivered once
     * more; an entry deleted from the stream meanwhile comes back with null fields (and stays pending).
     */
    static List<Map.Entry<StreamId, byte[][]>> history(StreamValue stream, StreamConsumer consumer, StreamId start,
                                                       long count, long now) {
        List<Map.Entry<StreamId, byte[][]>> read = new ArrayList<>();
        for (Map.Entry<StreamId, PendingEntry> pending : consumer.pending().view().tailMap(start, true).entrySet()) {
            if (count > 0 && read.size() == count) {
                break;
            }
            StreamId id = pending.getKey();
            byte[][] fields = stream.entries().get(id);
            if (fields != null) {
                pending.getValue().deliveredAt(now);
                pending.getValue().deliveries(pending.getValue().deliveries() + 1);
            }
            read.add(new AbstractMap.SimpleImmutableEntry<>(id, fields));
        }
        return read;
    }
}
