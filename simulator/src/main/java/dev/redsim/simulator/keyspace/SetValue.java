package dev.redsim.simulator.keyspace;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A set. Redis 7.0 keeps a set of integers as a sorted intset (so SMEMBERS replies in numeric order) until it
 * holds a non-integer or more than set-max-intset-entries members; then a hashtable, whose order is its own.
 */
public final class SetValue implements RedisValue {
    private final LinkedHashSet<Bytes> members = new LinkedHashSet<>();
    private boolean hashtable;

    public Set<Bytes> members() {
        return members;
    }

    public boolean isIntset() {
        return !hashtable;
    }

    @Override
    public String typeName() {
        return "set";
    }

    @Override
    public String encoding() {
        return hashtable ? "hashtable" : "intset";
    }

    /** Converts to hashtable (one way) when an added member is not an integer or the set grows too big. */
    public void updateEncoding(EncodingLimits limits, byte[] added) {
        if (hashtable) {
            return;
        }
        if ((added != null && Numbers.parseLongStrict(added) == null) || members.size() > limits.setMaxIntsetEntries()) {
            hashtable = true;
        }
    }

    /** Marks the set as a hashtable from the start (e.g. stored results that Redis builds as hashtables). */
    public void forceHashtable() {
        hashtable = true;
    }

    @Override
    public SetValue copy() {
        SetValue copy = new SetValue();
        copy.members.addAll(members);
        copy.hashtable = hashtable;
        return copy;
    }
}
