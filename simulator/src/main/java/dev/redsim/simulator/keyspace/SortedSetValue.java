package dev.redsim.simulator.keyspace;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * A sorted set: a member-to-score map plus an ordered index by (score, member), where members with equal
 * scores are ordered as memcmp orders their bytes, as in Redis.
 */
public final class SortedSetValue implements RedisValue {
    /** One (score, member) entry of the ordered index. */
    public record Entry(double score, Bytes member) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry other) {
            int byScore = Double.compare(score, other.score);
            return byScore != 0 ? byScore : member.compareTo(other.member);
        }
    }

    private final Map<Bytes, Double> scores = new HashMap<>();
    private final TreeSet<Entry> ordered = new TreeSet<>();
    private boolean skiplist;

    public Map<Bytes, Double> scores() {
        return java.util.Collections.unmodifiableMap(scores);
    }

    public TreeSet<Entry> ordered() {
        return ordered;
    }

    public int size() {
        return scores.size();
    }

    public Double score(Bytes member) {
        return scores.get(member);
    }

    /** Sets a member's score; returns true when the member is new. */
    public boolean put(Bytes member, double score) {
        Double old = scores.put(member, score);
        if (old != null) {
            ordered.remove(new Entry(old, member));
        }
        ordered.add(new Entry(score, member));
        return old == null;
    }

    public boolean remove(Bytes member) {
        Double old = scores.remove(member);
        if (old == null) {
            return false;
        }
        ordered.remove(new Entry(old, member));
        return true;
    }

    @Override
    public String typeName() {
        return "zset";
    }

    @Override
    public String encoding() {
        return skiplist ? "skiplist" : "listpack";
    }

    /** Converts to skiplist (one way) when a write crosses zset-max-listpack-entries/value. */
    public void updateEncoding(EncodingLimits limits, byte[] added) {
        if (skiplist) {
            return;
        }
        if (scores.size() > limits.zsetMaxListpackEntries()
                || (added != null && added.length > limits.zsetMaxListpackValue())) {
            skiplist = true;
        }
    }

    @Override
    public SortedSetValue copy() {
        SortedSetValue copy = new SortedSetValue();
        copy.scores.putAll(scores);
        copy.ordered.addAll(ordered);
        copy.skiplist = skiplist;
        return copy;
    }
}
