package dev.redsim.simulator.keyspace;

import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import static dev.redsim.simulator.keyspace.MemoryLayout.ROBJ;

/**
 * A stream (t_stream.c): entries sorted by ID, the IDs and counters Redis keeps beside them (last generated ID,
 * first entry, largest deleted ID, entries ever added) and the consumer groups in name order. Alongside the
 * entries it keeps the shape of Redis's storage, listpack nodes under a radix tree ({@link StreamListpack},
 * {@link RaxMap}), because XINFO and MEMORY USAGE report it and XADD's trimming works node by node.
 */
public final class StreamValue extends AccessTracked implements RedisValue {
    /** sizeof(stream) in Redis 7.0. */
    private static final long STREAM_STRUCT = 80;
    private static final long GROUP_STRUCT = 40;
    private static final long CONSUMER_STRUCT = 24;
    private static final long NACK_STRUCT = 24;

    private final TreeMap<StreamId, byte[][]> entries = new TreeMap<>();
    private final RaxMap<StreamListpack> nodes = new RaxMap<>();
    private StreamId lastId = StreamId.MIN;
    private StreamId firstId = StreamId.MIN;
    private StreamId maxDeletedId = StreamId.MIN;
    private long entriesAdded;
    private final TreeMap<Bytes, StreamGroup> groups = new TreeMap<>();

    @Override
    public String typeName() {
        return "stream";
    }

    @Override
    public String encoding() {
        return "stream";
    }

    @Override
    public boolean servesBlockedClients() {
        // streams wake their readers explicitly (XADD signals the key as ready), not on every change of the key
        return false;
    }

    // ---- what the stream holds ----

    public long length() {
        return entries.size();
    }

    /** The live entries by ID; each entry is its fields and values, alternating. Read-only for callers. */
    public NavigableMap<StreamId, byte[][]> entries() {
        return entries;
    }

    public StreamId lastId() {
        return lastId;
    }

    /** The largest ID ever generated for the stream, even if its entry was deleted (XSETID moves it too). */
    public void lastId(StreamId id) {
        this.lastId = id;
    }

    /** recorded-first-entry-id: the first entry's ID, 0-0 when empty. */
    public StreamId firstId() {
        return firstId;
    }

    public StreamId maxDeletedId() {
        return maxDeletedId;
    }

    public void maxDeletedId(StreamId id) {
        this.maxDeletedId = id;
    }

    public long entriesAdded() {
        return entriesAdded;
    }

    public void entriesAdded(long count) {
        this.entriesAdded = count;
    }

    /** The ID of the last live entry (streamLastValidID), or null when empty. */
    public StreamId lastEntryId() {
        return entries.isEmpty() ? null : entries.lastKey();
    }

    /** The listpack nodes by master ID, for the RDB serialization. */
    RaxMap<StreamListpack> nodes() {
        return nodes;
    }

    void firstId(StreamId id) {
        this.firstId = id;
    }

    /** radix-tree-keys: listpack nodes. */
    public long nodeCount() {
        return nodes.size();
    }

    /** radix-tree-nodes. */
    public long raxNodeCount() {
        return nodes.raxNodes();
    }

    public TreeMap<Bytes, StreamGroup> groups() {
        return groups;
    }

    public StreamGroup group(Bytes name) {
        return groups.get(name);
    }

    // ---- writes ----

    /**
     * Appends an entry with an ID greater than {@link #lastId()} (streamAppendItem): into the last node unless that
     * node holds {@code nodeMaxBytes} bytes with the new fields (0: no byte limit) or {@code nodeMaxEntries}
     * entries (0: no limit), otherwise into a new node.
     */
    public void append(StreamId id, byte[][] fieldsAndValues, long nodeMaxBytes, long nodeMaxEntries) {
        long byteLimit = nodeMaxBytes <= 0 || nodeMaxBytes > (1L << 30) ? 1L << 30 : nodeMaxBytes;
        Map.Entry<StreamId, StreamListpack> tail = nodes.view().lastEntry();
        StreamListpack node = tail == null ? null : tail.getValue();
        if (node != null) {
            long newBytes = 0;
            for (byte[] element : fieldsAndValues) {
                newBytes += element.length;
            }
            if (node.bytes() + newBytes >= byteLimit || (nodeMaxEntries > 0 && node.appended() >= nodeMaxEntries)) {
                node.shrinkToFit();
                node = null;
            }
        }
        if (node == null) {
            long prealloc = nodeMaxBytes > 0 && nodeMaxBytes < 4096 ? nodeMaxBytes : 4096;
            nodes.put(id, new StreamListpack(id, fieldsAndValues, prealloc));
        } else {
            node.append(id, fieldsAndValues);
        }
        entries.put(id, fieldsAndValues);
        entriesAdded++;
        lastId = id;
        if (entries.size() == 1) {
            firstId = id;
        }
    }

    /**
     * Deletes one entry (streamDeleteItem, as XDEL does): its node drops it, and goes when it was the node's last
     * live entry. Does not touch the first or the largest deleted ID (XDEL does that once, after all its IDs).
     */
    public boolean delete(StreamId id) {
        byte[][] removed = entries.remove(id);
        if (removed == null) {
            return false;
        }
        StreamId master = nodes.view().floorKey(id);
        StreamListpack node = nodes.get(master);
        if (node.live() == 1) {
            nodes.remove(master);
        } else {
            node.markDeleted(Map.of(id, removed));
        }
        return true;
    }

    /**
     * The first ID the stream's nodes still hold, deleted entries included (streamGetEdgeID without skipping
     * tombstones: a node keeps its deleted entries, flagged, until it goes whole); 0-0 when there is none.
     */
    public StreamId firstIdWithTombstones() {
        return nodes.isEmpty() ? StreamId.MIN : nodes.view().firstKey();
    }

    /** Sets the first ID again after deletions (0-0 when empty). */
    public void refreshFirstId() {
        firstId = entries.isEmpty() ? StreamId.MIN : entries.firstKey();
    }

    /**
     * streamTrim: removes the oldest entries down to {@code maxLength} entries, or those with IDs below {@code minId}
     * (when not null). Whole nodes go first; {@code approximate} stops at the first node that cannot go whole;
     * {@code limit} (0: none) stops before a node whose entries would take the deletions past it. Returns how many
     * entries went.
     */
    public long trim(long maxLength, StreamId minId, boolean approximate, long limit) {
        long deleted = 0;
        while (!nodes.isEmpty()) {
            if (minId == null && entries.size() <= maxLength) {
                break;
            }
            Map.Entry<StreamId, StreamListpack> first = nodes.view().firstEntry();
            StreamListpack node = first.getValue();
            long live = node.live();
            if (limit > 0 && deleted + live > limit) {
                break;
            }
            boolean wholeNode = minId == null ? entries.size() - live >= maxLength : node.lastId().lessThan(minId);
            NavigableMap<StreamId, byte[][]> inNode = nodeEntries(first.getKey());
            if (wholeNode) {
                inNode.clear();
                nodes.remove(first.getKey());
                deleted += live;
                continue;
            }
            if (approximate) {
                break;
            }
            Map<StreamId, byte[][]> removed = new TreeMap<>();
            Iterator<Map.Entry<StreamId, byte[][]>> inOrder = inNode.entrySet().iterator();
            while (inOrder.hasNext()) {
                Map.Entry<StreamId, byte[][]> entry = inOrder.next();
                if (minId == null ? entries.size() <= maxLength : !entry.getKey().lessThan(minId)) {
                    break;
                }
                removed.put(entry.getKey(), entry.getValue());
                inOrder.remove();
            }
            node.markDeleted(removed);
            deleted += removed.size();
            break;
        }
        refreshFirstId();
        return deleted;
    }

    /** The live entries of the node whose master ID is {@code master}. */
    NavigableMap<StreamId, byte[][]> nodeEntries(StreamId master) {
        StreamId next = nodes.view().higherKey(master);
        return next == null ? entries.tailMap(master, true) : entries.subMap(master, true, next, false);
    }

    // ---- the logical read counters of groups ----

    /**
     * streamRangeHasTombstones: whether an entry was deleted between {@code start} and the end of the stream, as
     * far as the largest deleted ID tells (a deletion before the first entry does not count).
     */
    public boolean hasTombstonesFrom(StreamId start) {
        if (entries.isEmpty() || maxDeletedId.isMin() || firstId.greaterThan(maxDeletedId)) {
            return false;
        }
        return !start.greaterThan(maxDeletedId);
    }

    /**
     * streamEstimateDistanceFromFirstEverEntry: how many entries were added up to and including {@code id}, when
     * the counters can tell (the last ID, the first entry or before it without deletions, an empty stream), else
     * {@link StreamGroup#UNKNOWN_ENTRIES_READ}.
     */
    public long entriesAddedUpTo(StreamId id) {
        if (entriesAdded == 0) {
            return 0;
        }
        if (entries.isEmpty() && !id.greaterThan(lastId)) {
            return entriesAdded;
        }
        int toLast = id.compareTo(lastId);
        if (toLast == 0) {
            return entriesAdded;
        }
        if (toLast > 0) {
            return StreamGroup.UNKNOWN_ENTRIES_READ;
        }
        if (maxDeletedId.isMin() || maxDeletedId.lessThan(firstId)) {
            int toFirst = id.compareTo(firstId);
            if (toFirst < 0) {
                return entriesAdded - entries.size();
            }
            if (toFirst == 0) {
                return entriesAdded - entries.size() + 1;
            }
        }
        return StreamGroup.UNKNOWN_ENTRIES_READ;
    }

    /** streamReplyWithCGLag: entries not yet delivered to the group, or null when the counters cannot tell. */
    public Long lag(StreamGroup group) {
        if (entriesAdded == 0) {
            return 0L;
        }
        if (group.entriesRead() != StreamGroup.UNKNOWN_ENTRIES_READ && !hasTombstonesFrom(group.lastId())) {
            return entriesAdded - group.entriesRead();
        }
        long read = entriesAddedUpTo(group.lastId());
        return read == StreamGroup.UNKNOWN_ENTRIES_READ ? null : entriesAdded - read;
    }

    // ---- groups ----

    public StreamGroup createGroup(Bytes name, StreamId lastDelivered, long entriesRead) {
        StreamGroup group = new StreamGroup(name, lastDelivered, entriesRead);
        groups.put(name, group);
        return group;
    }

    public boolean destroyGroup(Bytes name) {
        return groups.remove(name) != null;
    }

    // ---- the value type ----

    @Override
    public void writeRdb(dev.redsim.simulator.util.rdb.RdbWriter out) {
        StreamRdb.write(this, out);
    }

    @Override
    public StreamValue copy() {
        StreamValue copy = new StreamValue();
        copy.entries.putAll(entries);
        for (Map.Entry<StreamId, StreamListpack> node : nodes.view().entrySet()) {
            copy.nodes.put(node.getKey(), node.getValue().copy());
        }
        copy.lastId = lastId;
        copy.firstId = firstId;
        copy.maxDeletedId = maxDeletedId;
        copy.entriesAdded = entriesAdded;
        for (StreamGroup group : groups.values()) {
            copy.groups.put(group.name(), group.copy());
        }
        return copy;
    }

    /**
     * MEMORY USAGE as Redis 7.0 estimates a stream: the structures, the radix tree by its node count, the first
     * {@code samples} listpacks' allocations (averaged over all but the last node when there are more) plus the
     * last one's, and per group and consumer their structures and pending lists.
     */
    @Override
    public long memoryUsage(long samples) {
        long size = memoryUsageOfEntries(samples);
        for (StreamGroup group : groups.values()) {
            size += groupBytes(group, Long.MAX_VALUE);
        }
        return size;
    }

    /** The stream struct, its radix tree and its listpack nodes (sampled, the last one exactly), without groups. */
    private long memoryUsageOfEntries(long samples) {
        long size = ROBJ + STREAM_STRUCT + radixTree(nodes);
        long sampled = 0;
        long count = 0;
        for (StreamListpack node : nodes.view().values()) {
            if (count >= samples) {
                break;
            }
            sampled += node.allocated();
            count++;
        }
        if (nodes.size() <= count) {
            size += sampled;
        } else {
            size += (count == 0 ? 0 : sampled / count) * (nodes.size() - 1) + nodes.view().lastEntry().getValue().allocated();
        }
        return size;
    }

    private static long groupBytes(StreamGroup group, long consumerSamples) {
        long size = GROUP_STRUCT + radixTree(group.pending()) + NACK_STRUCT * group.pending().size();
        long sampled = 0;
        long count = 0;
        for (StreamConsumer consumer : group.consumers().values()) {
            if (count >= consumerSamples) {
                break;
            }
            sampled += CONSUMER_STRUCT + consumer.name().length() + radixTree(consumer.pending());
            count++;
        }
        int consumers = group.consumers().size();
        return size + (count == consumers ? sampled : MemoryLayout.extrapolate(sampled, count, consumers));
    }

    /**
     * used_memory's estimate, kept after every write: as MEMORY USAGE with its default sampling, and the consumer
     * groups and their consumers sampled too (five of each, extrapolated), so that XADD stays O(1) however many
     * groups read the stream.
     */
    @Override
    public long trackedBytes() {
        long all = memoryUsageOfEntries(5);
        long sampled = 0;
        long count = 0;
        for (StreamGroup group : groups.values()) {
            if (count >= 5) {
                break;
            }
            sampled += groupBytes(group, 5);
            count++;
        }
        return all + (count == groups.size() ? sampled : MemoryLayout.extrapolate(sampled, count, groups.size()));
    }

    /** streamRadixTreeMemoryUsage: 16 bytes a key, and a node header plus 30 words of overhead a node. */
    private static long radixTree(RaxMap<?> rax) {
        return rax.size() * 16L + rax.raxNodes() * (4 + 8 * 30);
    }
}
