package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.ScanDict;
import dev.redsim.simulator.util.rdb.Intset;
import dev.redsim.simulator.util.rdb.RdbWriter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static dev.redsim.simulator.keyspace.MemoryLayout.DICT;
import static dev.redsim.simulator.keyspace.MemoryLayout.DICT_ENTRY;
import static dev.redsim.simulator.keyspace.MemoryLayout.ROBJ;
import static dev.redsim.simulator.keyspace.MemoryLayout.extrapolate;
import static dev.redsim.simulator.keyspace.MemoryLayout.jemalloc;
import static dev.redsim.simulator.keyspace.MemoryLayout.sds;
import static dev.redsim.simulator.keyspace.MemoryLayout.slots;

/**
 * A set. Redis 7.0 keeps a set of integers as a sorted intset (so SMEMBERS replies in numeric order) until it
 * holds a non-integer or more than set-max-intset-entries members; then a hashtable, whose order is its own.
 *
 * <p>The intset is a sorted long array, as Redis's. The hashtable is an array of members plus a member-to-slot
 * index, so membership, insertion, removal and picking a random member (SPOP, SRANDMEMBER) are all O(1). The
 * index is a {@link ScanDict}, Redis's dict, so that SSCAN walks it with Redis's cursor at O(COUNT) a call.
 */
public final class SetValue extends AccessTracked implements RedisValue {
    private long[] ints = new long[4];
    private int intCount;
    /**
     * The intset's width (2, 4 or 8 bytes a member): the widest any member needed, as Redis widens an intset and never
     * narrows it (intsetUpgradeAndAdd; removals keep it). MEMORY USAGE and DUMP read it; it made measuring the set
     * after each write O(1) where reading every member cost a twelfth of rescue's engine thread.
     */
    private int intWidth = 2;
    /**
     * Null while the set is an intset. The members' arrays themselves, and the index keeps the same arrays without a
     * Bytes around them ({@link Bytes#AS_ARRAY}): a member costs its array, not its array and a wrapper.
     */
    private ArrayList<byte[]> slots;
    private ScanDict<Bytes, Integer> slotOf;

    public boolean isIntset() {
        return slots == null;
    }

    @Override
    public String typeName() {
        return "set";
    }

    @Override
    public String encoding() {
        return isIntset() ? "intset" : "hashtable";
    }

    public int size() {
        return isIntset() ? intCount : slots.size();
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Adds a member; converts to hashtable as Redis does. True if it was not there. */
    public boolean add(byte[] member, EncodingLimits limits) {
        if (isIntset()) {
            Long n = Numbers.parseLongStrict(member);
            if (n != null) {
                int at = Arrays.binarySearch(ints, 0, intCount, n);
                if (at >= 0) {
                    return false;
                }
                insertInt(-at - 1, n);
                if (intCount > limits.setMaxIntsetEntries()) {
                    convertToHashtable();
                }
                return true;
            }
            convertToHashtable();
        }
        return addToTable(Bytes.wrap(member));
    }

    private void insertInt(int at, long n) {
        intWidth = Math.max(intWidth, Intset.widthOf(n));
        if (intCount == ints.length) {
            ints = Arrays.copyOf(ints, intCount * 2);
        }
        System.arraycopy(ints, at, ints, at + 1, intCount - at);
        ints[at] = n;
        intCount++;
    }

    private boolean addToTable(Bytes member) {
        if (slotOf.putIfAbsent(member, slots.size()) != null) {
            return false;
        }
        slots.add(member.bytes());
        return true;
    }

    /** An intset restored from a blob keeps the blob's width, as Redis keeps the blob itself. */
    void widenIntset(int width) {
        if (isIntset()) {
            intWidth = Math.max(intWidth, width);
        }
    }

    /** Switches to a hashtable for good (Redis never converts back). */
    public void convertToHashtable() {
        if (!isIntset()) {
            return;
        }
        slots = new ArrayList<>(Math.max(4, intCount));
        slotOf = new ScanDict<>(Bytes.AS_ARRAY);
        for (int i = 0; i < intCount; i++) {
            addToTable(Bytes.wrap(Numbers.toBytes(ints[i])));
        }
        ints = null;
        intCount = 0;
    }

    public boolean contains(byte[] member) {
        if (isIntset()) {
            Long n = Numbers.parseLongStrict(member);
            return n != null && Arrays.binarySearch(ints, 0, intCount, n) >= 0;
        }
        return slotOf.containsKey(Bytes.wrap(member));
    }

    /** Removes a member; true if it was there. */
    public boolean remove(byte[] member) {
        if (isIntset()) {
            Long n = Numbers.parseLongStrict(member);
            int at = n == null ? -1 : Arrays.binarySearch(ints, 0, intCount, n);
            if (at < 0) {
                return false;
            }
            removeIntAt(at);
            return true;
        }
        Integer slot = slotOf.remove(Bytes.wrap(member));
        if (slot == null) {
            return false;
        }
        removeSlot(slot);
        return true;
    }

    private void removeIntAt(int at) {
        System.arraycopy(ints, at + 1, ints, at, intCount - at - 1);
        intCount--;
    }

    /** Fills the hole with the last member so removal stays O(1). */
    private void removeSlot(int slot) {
        byte[] last = slots.remove(slots.size() - 1);
        if (slot < slots.size()) {
            slots.set(slot, last);
            slotOf.put(Bytes.wrap(last), slot);
        }
    }

    /** The member at a position in [0, size): intset positions are numeric order. */
    public byte[] memberAt(int index) {
        return isIntset() ? Numbers.toBytes(ints[index]) : slots.get(index);
    }

    /** Removes and returns the member at a position (for SPOP). */
    public byte[] removeAt(int index) {
        if (isIntset()) {
            byte[] member = Numbers.toBytes(ints[index]);
            removeIntAt(index);
            return member;
        }
        byte[] member = slots.get(index);
        slotOf.remove(Bytes.wrap(member));
        removeSlot(index);
        return member;
    }

    /** Every member, in the set's own order (numeric for an intset). */
    public void forEach(Consumer<byte[]> action) {
        if (isIntset()) {
            for (int i = 0; i < intCount; i++) {
                action.accept(Numbers.toBytes(ints[i]));
            }
        } else {
            for (byte[] b : slots) {
                action.accept(b);
            }
        }
    }

    /**
     * One SSCAN call on a hashtable: the members of the buckets from the cursor on, until about count came (see
     * {@link ScanDict#scan(long, long, java.util.function.BiConsumer)}); returns the next cursor.
     */
    public long scanPage(long cursor, long count, List<byte[]> out) {
        return slotOf.scan(cursor, count, (member, slot) -> out.add(member.bytes()));
    }

    /** The members as a list (a snapshot). */
    public List<byte[]> toList() {
        List<byte[]> out = new ArrayList<>(size());
        forEach(out::add);
        return out;
    }

    @Override
    public SetValue copy() {
        SetValue copy = new SetValue();
        if (isIntset()) {
            copy.ints = Arrays.copyOf(ints, Math.max(4, intCount));
            copy.intCount = intCount;
            copy.intWidth = intWidth;
        } else {
            copy.ints = null;
            copy.slots = new ArrayList<>(slots);
            copy.slotOf = new ScanDict<>(Bytes.AS_ARRAY);
            copy.slotOf.putAll(slotOf);
        }
        return copy;
    }

    /** RDB_TYPE_SET_INTSET with the intset blob, or RDB_TYPE_SET with the members in iteration order. */
    @Override
    public void writeRdb(RdbWriter out) {
        if (isIntset()) {
            out.writeByte(RdbTypes.SET_INTSET);
            out.writeString(Intset.encode(ints, intCount, intWidth));
            return;
        }
        out.writeByte(RdbTypes.SET);
        out.writeLength(size());
        for (byte[] member : slots) {
            out.writeString(member);
        }
    }

    @Override
    public long memoryUsage(long samples) {
        int size = size();
        if (isIntset()) {
            return ROBJ + jemalloc(8L + (long) size * intWidth);
        }
        long sampled = 0;
        long count = Math.min(samples, size);
        for (int i = 0; i < count; i++) {
            sampled += DICT_ENTRY + sds(memberAt(i).length);
        }
        return ROBJ + DICT + 8L * slots(size) + extrapolate(sampled, count, size);
    }
}
