package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.KeyHashSlot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The keys of a cluster node's database by hash slot, as Redis 7.0 keeps them (slot_to_keys: a list per slot, a new
 * key at its head), so that CLUSTER COUNTKEYSINSLOT costs O(1) and GETKEYSINSLOT O(count), as documented, and lists
 * the keys in Redis's order (newest first). Kept by the {@link Database} it is attached to, on every key it adds and
 * removes.
 */
public final class SlotIndex {
    /** A key's place in its slot's list. */
    private static final class Entry {
        final Bytes key;
        final int slot;
        Entry previous;
        Entry next;

        Entry(Bytes key, int slot) {
            this.key = key;
            this.slot = slot;
        }
    }

    private HashMap<Bytes, Entry> entries = new HashMap<>();
    private final Entry[] heads = new Entry[KeyHashSlot.SLOTS];
    private final int[] counts = new int[KeyHashSlot.SLOTS];

    void added(Bytes key) {
        if (entries.containsKey(key)) {
            return;
        }
        Entry entry = new Entry(key, KeyHashSlot.of(key.bytes()));
        entries.put(key, entry);
        Entry head = heads[entry.slot];
        entry.next = head;
        if (head != null) {
            head.previous = entry;
        }
        heads[entry.slot] = entry;
        counts[entry.slot]++;
    }

    void removed(Bytes key) {
        Entry entry = entries.remove(key);
        if (entry == null) {
            return;
        }
        if (entry.previous != null) {
            entry.previous.next = entry.next;
        } else {
            heads[entry.slot] = entry.next;
        }
        if (entry.next != null) {
            entry.next.previous = entry.previous;
        }
        counts[entry.slot]--;
    }

    /** O(slots), not O(keys): HashMap.clear would null every bucket of a table sized for the keys FLUSHALL drops. */
    void clear() {
        entries = new HashMap<>();
        java.util.Arrays.fill(heads, null);
        java.util.Arrays.fill(counts, 0);
    }

    public int count(int slot) {
        return counts[slot];
    }

    /** At most {@code count} keys of the slot, newest first. */
    public List<Bytes> keys(int slot, int count) {
        List<Bytes> found = new ArrayList<>();
        for (Entry e = heads[slot]; e != null && found.size() < count; e = e.next) {
            found.add(e.key);
        }
        return found;
    }
}
