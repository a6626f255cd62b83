package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.rdb.Listpack;
import dev.redsim.simulator.util.rdb.RdbReader;
import dev.redsim.simulator.util.rdb.RdbWriter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stream in Redis 7.0's RDB serialization (RDB_TYPE_STREAM_LISTPACKS_2, rdb.c): its listpack nodes under their
 * master IDs, the length and the four IDs and counters of the stream, then each consumer group with its last
 * delivered ID, read counter, pending entries (ID, delivery time, delivery count) and consumers (name, seen time,
 * the IDs they hold). RESTORE rebuilds the nodes as they were, deleted entries included, so a value DUMPs back to
 * the bytes it came from.
 */
final class StreamRdb {
    private static final int ID_BYTES = 16;

    private StreamRdb() {
    }

    static void write(StreamValue stream, RdbWriter out) {
        out.writeByte(RdbTypes.STREAM_LISTPACKS_2);
        RaxMap<StreamListpack> nodes = stream.nodes();
        out.writeLength(nodes.size());
        for (Map.Entry<StreamId, StreamListpack> node : nodes.view().entrySet()) {
            out.writeString(raw(node.getKey()));
            out.writeString(node.getValue().listpack(stream.nodeEntries(node.getKey())));
        }
        out.writeLength(stream.length());
        writeId(out, stream.lastId());
        writeId(out, stream.firstId());
        writeId(out, stream.maxDeletedId());
        out.writeLength(stream.entriesAdded());
        out.writeLength(stream.groups().size());
        for (StreamGroup group : stream.groups().values()) {
            out.writeString(group.name().bytes());
            writeId(out, group.lastId());
            out.writeLength(group.entriesRead());
            out.writeLength(group.pending().size());
            for (Map.Entry<StreamId, PendingEntry> nack : group.pending().view().entrySet()) {
                out.writeRaw(raw(nack.getKey()));
                out.writeMillis(nack.getValue().deliveredAt());
                out.writeLength(nack.getValue().deliveries());
            }
            out.writeLength(group.consumers().size());
            for (StreamConsumer consumer : group.consumers().values()) {
                out.writeString(consumer.name().bytes());
                out.writeMillis(consumer.seenAt());
                out.writeLength(consumer.pending().size());
                for (StreamId id : consumer.pending().view().keySet()) {
                    out.writeRaw(raw(id));
                }
            }
        }
    }

    /** An entry of a node as its listpack holds it. */
    private record Entry(StreamId id, byte[][] fieldsAndValues, boolean deleted) {
    }

    static StreamValue read(RdbReader in) {
        StreamValue stream = new StreamValue();
        long nodeCount = in.readLength();
        StreamId previous = null;
        for (long n = 0; n < nodeCount; n++) {
            byte[] key = in.readString();
            if (key.length != ID_BYTES) {
                throw new RdbReader.Malformed("stream node key is not an ID");
            }
            StreamId master = id(key);
            List<Entry> entries = parseNode(master, Listpack.parse(in.readString()));
            if (previous != null && !entries.get(0).id.greaterThan(previous)) {
                throw new RdbReader.Malformed("stream nodes out of order");
            }
            previous = entries.get(entries.size() - 1).id;
            addNode(stream, master, entries);
        }
        if (in.readLength() != stream.length()) {
            throw new RdbReader.Malformed("stream length");
        }
        stream.lastId(readId(in));
        stream.firstId(readId(in));
        stream.maxDeletedId(readId(in));
        stream.entriesAdded(in.readLength());
        StreamId lastEntry = stream.lastEntryId();
        if (lastEntry != null && lastEntry.greaterThan(stream.lastId())) {
            throw new RdbReader.Malformed("stream entry beyond the last ID");
        }
        long groups = in.readLength();
        for (long g = 0; g < groups; g++) {
            readGroup(in, stream);
        }
        return stream;
    }

    private static void readGroup(RdbReader in, StreamValue stream) {
        Bytes name = Bytes.wrap(in.readString());
        if (stream.group(name) != null) {
            throw new RdbReader.Malformed("duplicate consumer group");
        }
        StreamGroup group = stream.createGroup(name, readId(in), in.readLength());
        long pending = in.readLength();
        for (long i = 0; i < pending; i++) {
            StreamId id = id(in.readRaw(ID_BYTES));
            long deliveredAt = in.readMillis();
            PendingEntry nack = new PendingEntry(null, deliveredAt, in.readLength());
            if (group.pending().put(id, nack) != null) {
                throw new RdbReader.Malformed("duplicate pending entry");
            }
        }
        long consumers = in.readLength();
        for (long c = 0; c < consumers; c++) {
            Bytes consumerName = Bytes.wrap(in.readString());
            if (group.consumer(consumerName) != null) {
                throw new RdbReader.Malformed("duplicate consumer");
            }
            StreamConsumer consumer = group.createConsumer(consumerName, in.readMillis());
            long held = in.readLength();
            for (long i = 0; i < held; i++) {
                StreamId id = id(in.readRaw(ID_BYTES));
                PendingEntry nack = group.pending().get(id);
                if (nack == null || nack.consumer() != null) {
                    throw new RdbReader.Malformed("consumer entry not in the group's pending list, or held twice");
                }
                nack.consumer(consumer);
                consumer.pending().put(id, nack);
            }
        }
        // Redis finds an owner-less pending entry only when it sanitizes payloads; it never makes one, so refuse it
        for (PendingEntry nack : group.pending().view().values()) {
            if (nack.consumer() == null) {
                throw new RdbReader.Malformed("pending entry without a consumer");
            }
        }
    }

    /** The entries of a node's listpack, checked as far as the simulator relies on them. */
    private static List<Entry> parseNode(StreamId master, List<byte[]> elements) {
        Cursor at = new Cursor(elements);
        long live = at.integer();
        long deleted = at.integer();
        int fieldCount = at.count();
        byte[][] masterFields = new byte[fieldCount][];
        for (int i = 0; i < fieldCount; i++) {
            masterFields[i] = at.next();
        }
        if (at.integer() != 0) {
            throw new RdbReader.Malformed("master entry terminator");
        }
        List<Entry> entries = new ArrayList<>();
        long liveSeen = 0;
        while (at.hasNext()) {
            long flags = at.integer();
            StreamId id = new StreamId(master.ms() + at.integer(), master.seq() + at.integer());
            boolean sameFields = (flags & StreamListpack.SAME_FIELDS) != 0;
            int fields = sameFields ? fieldCount : at.count();
            byte[][] fieldsAndValues = new byte[2 * fields][];
            for (int i = 0; i < fields; i++) {
                fieldsAndValues[2 * i] = sameFields ? masterFields[i] : at.next();
                fieldsAndValues[2 * i + 1] = at.next();
            }
            if (at.integer() != (sameFields ? fields + 3 : 2L * fields + 4)) {
                throw new RdbReader.Malformed("stream entry count");
            }
            if (!entries.isEmpty() && !id.greaterThan(entries.get(entries.size() - 1).id)) {
                throw new RdbReader.Malformed("stream entries out of order");
            }
            boolean isDeleted = (flags & StreamListpack.DELETED) != 0;
            liveSeen += isDeleted ? 0 : 1;
            entries.add(new Entry(id, fieldsAndValues, isDeleted));
        }
        if (entries.isEmpty() || liveSeen == 0 || liveSeen != live || entries.size() - liveSeen != deleted
                || !entries.get(0).id.equals(master)
                || !java.util.Arrays.deepEquals(fieldNames(entries.get(0).fieldsAndValues), masterFields)) {
            throw new RdbReader.Malformed("stream node counts or master entry");
        }
        return entries;
    }

    /** Rebuilds a node as the entries were appended to it, then flags the deleted ones, as Redis had it. */
    private static void addNode(StreamValue stream, StreamId master, List<Entry> entries) {
        Entry first = entries.get(0);
        StreamListpack node = new StreamListpack(master, first.fieldsAndValues, 0);
        for (Entry entry : entries.subList(1, entries.size())) {
            node.append(entry.id, entry.fieldsAndValues);
        }
        Map<StreamId, byte[][]> tombstones = new TreeMap<>();
        for (Entry entry : entries) {
            if (entry.deleted) {
                tombstones.put(entry.id, entry.fieldsAndValues);
            } else {
                stream.entries().put(entry.id, entry.fieldsAndValues);
            }
        }
        if (!tombstones.isEmpty()) {
            node.markDeleted(tombstones);
        }
        node.loaded();
        stream.nodes().put(master, node);
    }

    private static byte[][] fieldNames(byte[][] fieldsAndValues) {
        byte[][] names = new byte[fieldsAndValues.length / 2][];
        for (int i = 0; i < names.length; i++) {
            names[i] = fieldsAndValues[2 * i];
        }
        return names;
    }

    /** Walks a listpack's elements. */
    private static final class Cursor {
        private final List<byte[]> elements;
        private int next;

        Cursor(List<byte[]> elements) {
            this.elements = elements;
        }

        boolean hasNext() {
            return next < elements.size();
        }

        byte[] next() {
            if (!hasNext()) {
                throw new RdbReader.Malformed("stream listpack ends early");
            }
            return elements.get(next++);
        }

        long integer() {
            Long value = Numbers.parseLongStrict(next());
            if (value == null) {
                throw new RdbReader.Malformed("stream listpack integer");
            }
            return value;
        }

        int count() {
            long n = integer();
            if (n < 0 || n > elements.size()) {
                throw new RdbReader.Malformed("stream listpack count");
            }
            return (int) n;
        }
    }

    private static void writeId(RdbWriter out, StreamId id) {
        out.writeLength(id.ms());
        out.writeLength(id.seq());
    }

    private static StreamId readId(RdbReader in) {
        return new StreamId(in.readLength(), in.readLength());
    }

    /** The 16-byte big-endian form Redis keys its radix trees with. */
    private static byte[] raw(StreamId id) {
        byte[] raw = new byte[ID_BYTES];
        for (int i = 0; i < ID_BYTES; i++) {
            raw[i] = (byte) id.byteAt(i);
        }
        return raw;
    }

    private static StreamId id(byte[] raw) {
        long ms = 0;
        long seq = 0;
        for (int i = 0; i < 8; i++) {
            ms = (ms << 8) | (raw[i] & 0xff);
            seq = (seq << 8) | (raw[8 + i] & 0xff);
        }
        return new StreamId(ms, seq);
    }
}
