package dev.redsim.simulator.keyspace;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A hash. Fields keep insertion order, which is the order Redis's listpack encoding replies in; once a hash
 * becomes a hashtable, Redis's order is its own and tests compare such replies as unordered.
 */
public final class HashValue implements RedisValue {
    private final LinkedHashMap<Bytes, byte[]> fields = new LinkedHashMap<>();
    private boolean hashtable;

    public Map<Bytes, byte[]> fields() {
        return fields;
    }

    @Override
    public String typeName() {
        return "hash";
    }

    @Override
    public String encoding() {
        return hashtable ? "hashtable" : "listpack";
    }

    /** Converts to hashtable (one way) when a write crosses hash-max-listpack-entries/value. */
    public void updateEncoding(EncodingLimits limits, byte[] field, byte[] value) {
        if (hashtable) {
            return;
        }
        if (fields.size() > limits.hashMaxListpackEntries()
                || (field != null && field.length > limits.hashMaxListpackValue())
                || (value != null && value.length > limits.hashMaxListpackValue())) {
            hashtable = true;
        }
    }

    @Override
    public HashValue copy() {
        HashValue copy = new HashValue();
        copy.fields.putAll(fields);
        copy.hashtable = hashtable;
        return copy;
    }
}
