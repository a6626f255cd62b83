package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.rdb.Listpack;
import dev.redsim.simulator.util.rdb.RdbWriter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.redsim.simulator.keyspace.MemoryLayout.LISTPACK_NODE_BYTES;
import static dev.redsim.simulator.keyspace.MemoryLayout.QUICKLIST;
import static dev.redsim.simulator.keyspace.MemoryLayout.QUICKLIST_NODE;
import static dev.redsim.simulator.keyspace.MemoryLayout.ROBJ;
import static dev.redsim.simulator.keyspace.MemoryLayout.extrapolate;
import static dev.redsim.simulator.keyspace.MemoryLayout.jemalloc;
import static dev.redsim.simulator.keyspace.MemoryLayout.listpackEntry;

/**
 * A list: a growable ring buffer of elements, so pushes and pops at both ends are O(1) and indexing is O(1),
 * as Redis's quicklist gives for the operations that matter to queues.
 */
public final class ListValue extends AccessTracked implements RedisValue {
    private byte[][] items = new byte[8][];
    private int head;
    private int size;
    /** The listpack bytes of all elements (entry encodings and back-lengths), kept as elements come and go. */
    private long entryBytes;

    @Override
    public String typeName() {
        return "list";
    }

    /** Redis 7.0 keeps every list as a quicklist (small listpack-encoded lists only came with 7.2). */
    @Override
    public String encoding() {
        return "quicklist";
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public byte[] get(int index) {
        return items[slot(index)];
    }

    public void set(int index, byte[] value) {
        int slot = slot(index);
        if (items[slot] != null) {
            entryBytes -= listpackEntry(items[slot]);
        }
        items[slot] = value;
        entryBytes += listpackEntry(value);
    }

    private int slot(int index) {
        return (head + index) & (items.length - 1);
    }

    /** Adds at the head (left) or the tail (right). */
    public void push(boolean atHead, byte[] value) {
        if (atHead) {
            addFirst(value);
        } else {
            addLast(value);
        }
    }

    /** Removes from the head (left) or the tail (right); null when empty. */
    public byte[] pop(boolean atHead) {
        if (size == 0) {
            return null;
        }
        return atHead ? removeFirst() : removeLast();
    }

    public void addFirst(byte[] value) {
        grow();
        head = (head - 1) & (items.length - 1);
        items[head] = value;
        size++;
        entryBytes += listpackEntry(value);
    }

    public void addLast(byte[] value) {
        grow();
        items[slot(size)] = value;
        size++;
        entryBytes += listpackEntry(value);
    }

    public byte[] removeFirst() {
        byte[] value = items[head];
        items[head] = null;
        head = (head + 1) & (items.length - 1);
        size--;
        entryBytes -= listpackEntry(value);
        return value;
    }

    public byte[] removeLast() {
        int index = slot(size - 1);
        byte[] value = items[index];
        items[index] = null;
        size--;
        entryBytes -= listpackEntry(value);
        return value;
    }

    /** Inserts before position index (index == size appends), shifting the shorter side. */
    public void insertAt(int index, byte[] value) {
        if (index < size / 2) {
            addFirst(value);
            for (int i = 0; i < index; i++) {
                set(i, get(i + 1));
            }
        } else {
            addLast(value);
            for (int i = size - 1; i > index; i--) {
                set(i, get(i - 1));
            }
        }
        set(index, value);
    }

    /**
     * Removes elements equal to value, as LREM: up to {@code limit} of them (0 means all), scanning from the
     * head, or from the tail when {@code fromTail}. One compacting pass, so many removals stay O(n).
     */
    public int removeMatching(byte[] value, long limit, boolean fromTail) {
        byte[][] kept = new byte[items.length][];
        int removed = 0;
        int n = 0;
        if (fromTail) {
            int write = size;
            for (int i = size - 1; i >= 0; i--) {
                byte[] e = get(i);
                if ((limit == 0 || removed < limit) && Arrays.equals(e, value)) {
                    removed++;
                } else {
                    kept[--write] = e;
                }
            }
            n = size - write;
            System.arraycopy(kept, write, kept, 0, n);
            Arrays.fill(kept, n, size, null);
        } else {
            for (int i = 0; i < size; i++) {
                byte[] e = get(i);
                if ((limit == 0 || removed < limit) && Arrays.equals(e, value)) {
                    removed++;
                } else {
                    kept[n++] = e;
                }
            }
        }
        if (removed > 0) {
            items = kept;
            head = 0;
            size = n;
            entryBytes = 0;
            for (int i = 0; i < n; i++) {
                entryBytes += listpackEntry(kept[i]);
            }
        }
        return removed;
    }

    /** Keeps only [start, end] (inclusive, already clamped by the caller); start > end empties the list. */
    public void trim(int start, int end) {
        int n = Math.max(0, end - start + 1);
        if (n > 0 && size - n < n) {
            // Fewer to drop than to keep (a capped list after a push): drop from the ends, O(dropped) as Redis.
            for (int i = 0; i < start; i++) {
                removeFirst();
            }
            while (size > n) {
                removeLast();
            }
            return;
        }
        byte[][] kept = new byte[Math.max(8, Integer.highestOneBit(Math.max(1, n)) << 1)][];
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            kept[i] = get(start + i);
            bytes += listpackEntry(kept[i]);
        }
        items = kept;
        head = 0;
        size = n;
        entryBytes = bytes;
    }

    private void grow() {
        if (size < items.length) {
            return;
        }
        byte[][] bigger = new byte[items.length * 2][];
        for (int i = 0; i < size; i++) {
            bigger[i] = get(i);
        }
        items = bigger;
        head = 0;
    }

    @Override
    public ListValue copy() {
        ListValue copy = new ListValue();
        copy.items = Arrays.copyOf(items, items.length);
        copy.head = head;
        copy.size = size;
        copy.entryBytes = entryBytes;
        return copy;
    }

    /** Blocking pops (BLPOP, BLMOVE, ... / BZPOPMIN, BZMPOP) wait for this type. */
    @Override
    public boolean servesBlockedClients() {
        return true;
    }

    /**
     * RDB_TYPE_LIST_QUICKLIST_2: the quicklist's nodes, each a packed listpack. The nodes are cut as Redis cuts
     * them for elements pushed at the tail in order (list-max-listpack-size -2: 8 KB per node); a list grown
     * otherwise may have had its nodes cut elsewhere in Redis.
     */
    @Override
    public void writeRdb(RdbWriter out) {
        out.writeByte(RdbTypes.LIST_QUICKLIST_2);
        List<Listpack> nodes = new ArrayList<>();
        Listpack node = null;
        for (int i = 0; i < size(); i++) {
            byte[] element = get(i);
            if (node == null || !RdbTypes.quicklistNodeAccepts(node.size(), element.length)) {
                node = new Listpack();
                nodes.add(node);
            }
            node.add(element);
        }
        out.writeLength(nodes.size());
        for (Listpack n : nodes) {
            out.writeLength(RdbTypes.QUICKLIST_NODE_PACKED);
            out.writeString(n.toByteArray());
        }
    }

    /** How many 8 KB quicklist nodes the list would take in Redis, packed full (O(1)). */
    public long quicklistNodes() {
        return size == 0 ? 0 : Math.max(1, (entryBytes + LISTPACK_NODE_BYTES - 8) / (LISTPACK_NODE_BYTES - 7));
    }

    /**
     * used_memory's O(1) estimate: the running listpack bytes, cut into 8 KB quicklist nodes as if packed full
     * (MEMORY USAGE below cuts them where pushes at the tail would).
     */
    @Override
    public long trackedBytes() {
        long nodes = quicklistNodes();
        long perNode = nodes == 0 ? 0 : jemalloc(7 + entryBytes / nodes);
        return ROBJ + QUICKLIST + nodes * (QUICKLIST_NODE + perNode);
    }

    /** MEMORY USAGE of this value, without its key (see {@link MemoryLayout}). */
    @Override
    public long memoryUsage(long samples) {
        long nodes = 0;
        long sampled = 0;
        long nodeBytes = 0;
        for (int i = 0; i < size(); i++) {
            long entry = listpackEntry(get(i));
            if (nodeBytes > 0 && 7 + nodeBytes + entry > LISTPACK_NODE_BYTES) {
                sampled += nodes < samples ? QUICKLIST_NODE + jemalloc(7 + nodeBytes) : 0;
                nodes++;
                nodeBytes = 0;
            }
            nodeBytes += entry;
        }
        if (nodeBytes > 0) {
            sampled += nodes < samples ? QUICKLIST_NODE + jemalloc(7 + nodeBytes) : 0;
            nodes++;
        }
        return ROBJ + QUICKLIST + extrapolate(sampled, Math.min(nodes, samples), nodes);
    }
}
