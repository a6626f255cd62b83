package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.rdb.Listpack;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One of Redis's stream nodes (a listpack under a radix tree key, t_stream.c): its master entry, the entries
 * appended to it (live and deleted: Redis only flags a deleted entry, which stays in the node until the node goes)
 * and the allocation holding it. The live entries themselves live in {@link StreamValue}'s sorted map; the node keeps
 * the deleted ones ({@link #tombstones}), because DUMP writes them. The sizes decide when XADD opens a new node
 * (stream-node-max-bytes) and what MEMORY USAGE reports.
 */
final class StreamListpack {
    /** Header (total bytes, element count) and end byte of every listpack. */
    private static final long LISTPACK_OVERHEAD = 7;
    /** STREAM_ITEM_FLAG_SAMEFIELDS: an entry whose field names are the master entry's. */
    static final int SAME_FIELDS = 2;
    /** STREAM_ITEM_FLAG_DELETED. */
    static final int DELETED = 1;

    final StreamId master;
    private final byte[][] masterFields;
    private long live;
    private long deleted;
    /** Every element after the live and deleted counters: the master fields, their count and terminator, entries. */
    private long bodyBytes;
    private long allocated;
    /** lpBytes after the last change, to tell growth from shrinking. */
    private long lastBytes;
    /** The ID of the last entry appended, deleted or not (what MINID trimming reads). */
    private StreamId lastId;
    /** The deleted entries still in the node, by ID. */
    private final TreeMap<StreamId, byte[][]> tombstones;

    /**
     * A new node whose master entry takes the fields of its first entry (which is then added), allocated as
     * lpNew(prealloc) allocates.
     */
    StreamListpack(StreamId first, byte[][] fieldsAndValues, long prealloc) {
        this.master = first;
        int fields = fieldsAndValues.length / 2;
        this.masterFields = new byte[fields][];
        long body = integer(fields) + integer(0);
        for (int i = 0; i < fields; i++) {
            masterFields[i] = fieldsAndValues[2 * i];
            body += MemoryLayout.listpackEntry(masterFields[i]);
        }
        this.bodyBytes = body;
        this.allocated = MemoryLayout.jemalloc(Math.max(prealloc, 7));
        this.live = 0;
        this.deleted = 0;
        this.tombstones = new TreeMap<>();
        append(first, fieldsAndValues);
    }

    private StreamListpack(StreamListpack other) {
        this.master = other.master;
        this.masterFields = other.masterFields;
        this.live = other.live;
        this.deleted = other.deleted;
        this.bodyBytes = other.bodyBytes;
        this.allocated = other.allocated;
        this.lastBytes = other.lastBytes;
        this.lastId = other.lastId;
        this.tombstones = new TreeMap<>(other.tombstones);
    }

    StreamListpack copy() {
        return new StreamListpack(this);
    }

    /** lpBytes: what the listpack holds now. */
    long bytes() {
        return LISTPACK_OVERHEAD + integer(live) + integer(deleted) + bodyBytes;
    }

    /** zmalloc_size of the listpack: a node is preallocated, grows in jemalloc's classes and shrinks to fit. */
    long allocated() {
        return allocated;
    }

    long live() {
        return live;
    }

    /** Entries appended so far, deleted ones included (what stream-node-max-entries limits). */
    long appended() {
        return live + deleted;
    }

    StreamId lastId() {
        return lastId;
    }

    /** Appends an entry as streamAppendItem encodes it: delta-encoded ID, field names left out when the master's. */
    void append(StreamId id, byte[][] fieldsAndValues) {
        int fields = fieldsAndValues.length / 2;
        boolean sameFields = sameFieldsAsMaster(fieldsAndValues);
        long entry = integer(sameFields ? SAME_FIELDS : 0) + integer(id.ms() - master.ms()) + integer(id.seq() - master.seq());
        if (sameFields) {
            for (int i = 0; i < fields; i++) {
                entry += MemoryLayout.listpackEntry(fieldsAndValues[2 * i + 1]);
            }
            entry += integer(fields + 3);
        } else {
            entry += integer(fields);
            for (byte[] element : fieldsAndValues) {
                entry += MemoryLayout.listpackEntry(element);
            }
            entry += integer(2L * fields + 4);
        }
        bodyBytes += entry;
        live++;
        lastId = id;
        resized();
    }

    private boolean sameFieldsAsMaster(byte[][] fieldsAndValues) {
        if (fieldsAndValues.length / 2 != masterFields.length) {
            return false;
        }
        for (int i = 0; i < masterFields.length; i++) {
            if (!Arrays.equals(masterFields[i], fieldsAndValues[2 * i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Flags live entries as deleted (their flags keep their size), then rewrites the live and the deleted counter,
     * one after the other, as XDEL and XTRIM do; either may change size.
     */
    void markDeleted(Map<StreamId, byte[][]> removed) {
        tombstones.putAll(removed);
        long count = removed.size();
        live -= count;
        resized();
        deleted += count;
        resized();
    }

    /** A node as RESTORE loads it: allocated to the listpack's exact size. */
    void loaded() {
        allocated = MemoryLayout.jemalloc(bytes());
        lastBytes = bytes();
    }

    /**
     * The node's listpack as Redis holds it: the master entry (live and deleted counts, the master fields, a zero
     * terminator), then every entry appended, deleted ones flagged, each as flags, ID deltas from the master, the
     * fields unless they are the master's, the values, and the entry's element count (lp-count).
     */
    byte[] listpack(NavigableMap<StreamId, byte[][]> liveEntries) {
        Listpack lp = new Listpack();
        lp.addInteger(live);
        lp.addInteger(deleted);
        lp.addInteger(masterFields.length);
        for (byte[] field : masterFields) {
            lp.add(field);
        }
        lp.addInteger(0);
        Iterator<Map.Entry<StreamId, byte[][]>> alive = liveEntries.entrySet().iterator();
        Iterator<Map.Entry<StreamId, byte[][]>> dead = tombstones.entrySet().iterator();
        Map.Entry<StreamId, byte[][]> a = alive.hasNext() ? alive.next() : null;
        Map.Entry<StreamId, byte[][]> d = dead.hasNext() ? dead.next() : null;
        while (a != null || d != null) {
            boolean takeDead = a == null || (d != null && d.getKey().lessThan(a.getKey()));
            Map.Entry<StreamId, byte[][]> entry = takeDead ? d : a;
            writeEntry(lp, entry.getKey(), entry.getValue(), takeDead);
            if (takeDead) {
                d = dead.hasNext() ? dead.next() : null;
            } else {
                a = alive.hasNext() ? alive.next() : null;
            }
        }
        return lp.toByteArray();
    }

    private void writeEntry(Listpack lp, StreamId id, byte[][] fieldsAndValues, boolean isDeleted) {
        int fields = fieldsAndValues.length / 2;
        boolean sameFields = sameFieldsAsMaster(fieldsAndValues);
        lp.addInteger((sameFields ? SAME_FIELDS : 0) | (isDeleted ? DELETED : 0));
        lp.addInteger(id.ms() - master.ms());
        lp.addInteger(id.seq() - master.seq());
        if (sameFields) {
            for (int i = 0; i < fields; i++) {
                lp.add(fieldsAndValues[2 * i + 1]);
            }
            lp.addInteger(fields + 3);
        } else {
            lp.addInteger(fields);
            for (byte[] element : fieldsAndValues) {
                lp.add(element);
            }
            lp.addInteger(2L * fields + 4);
        }
    }

    /** lpShrinkToFit, when XADD moves on to a new node. */
    void shrinkToFit() {
        if (allocated > bytes()) {
            allocated = MemoryLayout.jemalloc(bytes());
        }
    }

    /** listpack.c reallocates when it outgrows its allocation and when an element shrinks. */
    private void resized() {
        long now = bytes();
        if ((now > lastBytes && now > allocated) || (lastBytes != 0 && now < lastBytes)) {
            allocated = MemoryLayout.jemalloc(now);
        }
        lastBytes = now;
    }

    /** Bytes of an integer element of a listpack (encoding plus back-length). */
    static long integer(long value) {
        long size;
        if (value >= 0 && value <= 127) {
            size = 1;
        } else if (value >= -4096 && value <= 4095) {
            size = 2;
        } else if (value == (short) value) {
            size = 3;
        } else if (value >= -(1 << 23) && value < (1 << 23)) {
            size = 4;
        } else if (value == (int) value) {
            size = 5;
        } else {
            size = 9;
        }
        return size + 1;
    }
}
