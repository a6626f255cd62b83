package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.util.ScanDict;
import dev.redsim.simulator.util.rdb.Listpack;
import dev.redsim.simulator.util.rdb.RdbWriter;

import java.util.Iterator;
import java.util.Map;
import java.util.random.RandomGenerator;

import static dev.redsim.simulator.keyspace.MemoryLayout.DICT;
import static dev.redsim.simulator.keyspace.MemoryLayout.DICT_ENTRY;
import static dev.redsim.simulator.keyspace.MemoryLayout.ROBJ;
import static dev.redsim.simulator.keyspace.MemoryLayout.extrapolate;
import static dev.redsim.simulator.keyspace.MemoryLayout.jemalloc;
import static dev.redsim.simulator.keyspace.MemoryLayout.sds;
import static dev.redsim.simulator.keyspace.MemoryLayout.slots;

/**
 * A hash. While listpack-encoded, fields are packed ({@link ListpackPairs}) and keep insertion order, which is the order Redis's listpack encoding replies
 * in (an update keeps a field's place, a delete closes the gap). Once a hashtable, the fields live in a
 * {@link ScanDict}, Redis's dict, so that HSCAN walks them with Redis's cursor at O(COUNT) a call and HRANDFIELD
 * picks a random bucket in O(1); the order is then the dict's own, as in Redis, and tests compare such replies as
 * unordered.
 */
public final class HashValue extends AccessTracked implements RedisValue {
    /**
     * Packed pairs while listpack-encoded, a ScanDict once a hashtable (keeping each field's bytes without a Bytes
     * wrapper, as the keyspace keeps its keys).
     */
    private Map<Bytes, byte[]> fields = new ListpackPairs();
    private boolean hashtable;

    public Map<Bytes, byte[]> fields() {
        return fields;
    }

    public int size() {
        return fields.size();
    }

    public boolean isEmpty() {
        return fields.isEmpty();
    }

    public byte[] get(Bytes field) {
        return fields.get(field);
    }

    public boolean contains(Bytes field) {
        return fields.containsKey(field);
    }

    public boolean remove(Bytes field) {
        return fields.remove(field) != null;
    }

    /**
     * A random field of a hashtable-encoded hash (dictGetRandomKey: a random non-empty bucket, then a place in its
     * chain), O(1) on average; null when empty. Listpack-encoded hashes have no random access (Redis walks the
     * listpack, which its configured maximum bounds): the caller walks {@link #fields()} for those.
     */
    public Bytes randomHashtableField(RandomGenerator random) {
        return ((ScanDict<Bytes, byte[]>) fields).randomKey(random);
    }

    /**
     * One HSCAN call on a hashtable-encoded hash: the fields of the buckets from the cursor on, until about count
     * came (see {@link ScanDict#scan(long, long, java.util.function.BiConsumer)}); returns the next cursor.
     */
    public long scanHashtable(long cursor, long count, java.util.function.BiConsumer<Bytes, byte[]> action) {
        return ((ScanDict<Bytes, byte[]>) fields).scan(cursor, count, action);
    }

    /** Switches to the hashtable encoding for good (Redis never converts back): the fields move into a dict. */
    private void convertToHashtable() {
        if (hashtable) {
            return;
        }
        ScanDict<Bytes, byte[]> dict = new ScanDict<>(Bytes.AS_ARRAY);
        dict.putAll(fields);
        fields = dict;
        hashtable = true;
    }

    @Override
    public String typeName() {
        return "hash";
    }

    @Override
    public String encoding() {
        return hashtable ? "hashtable" : "listpack";
    }

    /**
     * Converts to hashtable (one way) before a write whose arguments include a string longer than
     * hash-max-listpack-value, as hashTypeTryConversion does with arguments {@code from..to} inclusive (fields
     * and values alike, whether or not the write then changes anything).
     */
    public void convertForArguments(EncodingLimits limits, byte[][] args, int from, int to) {
        if (hashtable) {
            return;
        }
        long maxValue = limits.hashMaxListpackValue();
        for (int i = from; i <= to; i++) {
            if (args[i].length > maxValue) {
                convertToHashtable();
                return;
            }
        }
    }

    /**
     * Sets a field as hashTypeSet: a field or value too long for a listpack converts first, and crossing
     * hash-max-listpack-entries converts after. Returns true when the field already existed (an update).
     */
    public boolean set(EncodingLimits limits, Bytes field, byte[] value) {
        if (hashtable) {
            return fields.put(field, value) != null;
        }
        long maxValue = limits.hashMaxListpackValue();
        if (field.length() > maxValue || value.length > maxValue) {
            convertToHashtable();
        }
        boolean existed = hashtable ? fields.put(field, value) != null : ((ListpackPairs) fields).set(field, value);
        if (fields.size() > limits.hashMaxListpackEntries()) {
            convertToHashtable();
        }
        return existed;
    }

    /** RDB_TYPE_HASH_LISTPACK with field and value pairs in order, or RDB_TYPE_HASH with the pairs. */
    @Override
    public void writeRdb(RdbWriter out) {
        if (!hashtable) {
            out.writeByte(RdbTypes.HASH_LISTPACK);
            Listpack lp = new Listpack();
            fields.forEach((field, value) -> {
                lp.add(field.bytes());
                lp.add(value);
            });
            out.writeString(lp.toByteArray());
            return;
        }
        out.writeByte(RdbTypes.HASH);
        out.writeLength(size());
        fields.forEach((field, value) -> {
            out.writeString(field.bytes());
            out.writeString(value);
        });
    }

    @Override
    public HashValue copy() {
        HashValue copy = new HashValue();
        if (hashtable) {
            copy.fields = new ScanDict<>(Bytes.AS_ARRAY);
        }
        copy.fields.putAll(fields);
        copy.hashtable = hashtable;
        return copy;
    }

    /** MEMORY USAGE of this value, without its key (see {@link MemoryLayout}). */
    @Override
    public long memoryUsage(long samples) {
        Map<Bytes, byte[]> fields = fields();
        if (!hashtable) {
            return ROBJ + jemalloc(7 + ((ListpackPairs) fields).listpackEntryBytes());
        }
        long sampled = 0;
        long count = 0;
        Iterator<Map.Entry<Bytes, byte[]>> it = fields.entrySet().iterator();
        while (it.hasNext() && count < samples) {
            Map.Entry<Bytes, byte[]> e = it.next();
            sampled += DICT_ENTRY + sds(e.getKey().length()) + sds(e.getValue().length);
            count++;
        }
        return ROBJ + DICT + 8L * slots(fields.size()) + extrapolate(sampled, count, fields.size());
    }
}
