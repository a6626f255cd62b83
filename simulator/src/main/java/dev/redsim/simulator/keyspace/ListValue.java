package dev.redsim.simulator.keyspace;

import java.util.Arrays;

/**
 * A list: a growable ring buffer of elements, so pushes and pops at both ends are O(1) and indexing is O(1),
 * as Redis's quicklist gives for the operations that matter to queues.
 */
public final class ListValue implements RedisValue {
    private byte[][] items = new byte[8][];
    private int head;
    private int size;
    /** Redis 7.0 reports "listpack" for small lists and "quicklist" once a list outgrows one node. */
    private boolean quicklist;

    @Override
    public String typeName() {
        return "list";
    }

    @Override
    public String encoding() {
        return quicklist ? "quicklist" : "listpack";
    }

    /** Applies list-max-listpack-size after a write, as Redis converts listpack to quicklist (one way). */
    public void updateEncoding(EncodingLimits limits, long valueBytesAdded) {
        if (quicklist) {
            return;
        }
        long limit = limits.listMaxListpackSize();
        if (limit >= 0) {
            if (size > limit) {
                quicklist = true;
            }
        } else {
            long maxBytes = 4096L << Math.min(4, (int) (-limit - 1));
            if (approximateBytes() > maxBytes) {
                quicklist = true;
            }
        }
    }

    private long approximateBytes() {
        long total = 6; // listpack header and terminator
        for (int i = 0; i < size; i++) {
            int len = get(i).length;
            total += len + (len < 64 ? 2 : len < 4096 ? 3 : 6);
        }
        return total;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public byte[] get(int index) {
        return items[(head + index) & (items.length - 1)];
    }

    public void set(int index, byte[] value) {
        items[(head + index) & (items.length - 1)] = value;
    }

    public void addFirst(byte[] value) {
        grow();
        head = (head - 1) & (items.length - 1);
        items[head] = value;
        size++;
    }

    public void addLast(byte[] value) {
        grow();
        items[(head + size) & (items.length - 1)] = value;
        size++;
    }

    public byte[] removeFirst() {
        byte[] value = items[head];
        items[head] = null;
        head = (head + 1) & (items.length - 1);
        size--;
        return value;
    }

    public byte[] removeLast() {
        int index = (head + size - 1) & (items.length - 1);
        byte[] value = items[index];
        items[index] = null;
        size--;
        return value;
    }

    /** Removes the element at index, shifting later ones left. */
    public byte[] removeAt(int index) {
        byte[] value = get(index);
        for (int i = index; i < size - 1; i++) {
            set(i, get(i + 1));
        }
        set(size - 1, null);
        size--;
        return value;
    }

    /** Inserts before position index (index == size appends). */
    public void insertAt(int index, byte[] value) {
        addLast(value);
        for (int i = size - 1; i > index; i--) {
            set(i, get(i - 1));
        }
        set(index, value);
    }

    /** Keeps only [start, end] (inclusive, already clamped by the caller). */
    public void trim(int start, int end) {
        byte[][] kept = new byte[Math.max(8, Integer.highestOneBit(Math.max(1, end - start + 1)) << 1)][];
        int n = 0;
        for (int i = start; i <= end && i < size; i++) {
            kept[n++] = get(i);
        }
        items = kept;
        head = 0;
        size = n;
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
        copy.quicklist = quicklist;
        return copy;
    }
}
