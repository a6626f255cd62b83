package dev.redsim.simulator.keyspace;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A sorted map keyed by stream IDs that also knows how many nodes Redis's radix tree (rax.c) would have for the
 * same keys: XINFO STREAM reports that count (radix-tree-nodes) and MEMORY USAGE is computed from it.
 *
 * <p>The count follows from the keys alone. Every key is 16 bytes (the ID in big endian), so no key is a prefix of
 * another, and rax keeps its tree compressed after every insert and removal: each chain of single-child positions
 * is one node, each branching position one node, each key one leaf. An insert therefore adds nodes according to
 * where the new key leaves the path of its closest neighbour (see {@link #nodesAddedBy}); a removal takes away what
 * inserting the key again would add.
 */
public final class RaxMap<V> {
    private static final int KEY_BYTES = 16;
    private final TreeMap<StreamId, V> map = new TreeMap<>();
    /** An empty rax is its head node alone. */
    private long nodes = 1;

    /** The map itself, for lookups and ordered views: change it only through {@link #put} and {@link #remove}. */
    public NavigableMap<StreamId, V> view() {
        return map;
    }

    public int size() {
        return map.size();
    }

    public boolean isEmpty() {
        return map.isEmpty();
    }

    public V get(StreamId id) {
        return map.get(id);
    }

    /** raxSize and numnodes of the same keys in Redis. */
    public long raxNodes() {
        return nodes;
    }

    /** Adds or replaces; returns the previous value. */
    public V put(StreamId id, V value) {
        if (!map.containsKey(id)) {
            nodes += nodesAddedBy(id);
        }
        return map.put(id, value);
    }

    public V remove(StreamId id) {
        if (!map.containsKey(id)) {
            return null;
        }
        V removed = map.remove(id);
        nodes -= nodesAddedBy(id);
        return removed;
    }

    public void clear() {
        map.clear();
        nodes = 1;
    }

    /** A copy with the same keys (and node count) and values made by {@code copier}. */
    public RaxMap<V> copy(java.util.function.UnaryOperator<V> copier) {
        RaxMap<V> copy = new RaxMap<>();
        for (Map.Entry<StreamId, V> e : map.entrySet()) {
            copy.map.put(e.getKey(), copier.apply(e.getValue()));
        }
        copy.nodes = nodes;
        return copy;
    }

    /**
     * The nodes raxInsert creates for a key absent from the map. The key shares {@code d} bytes with its closest
     * neighbour x and differs at byte d. If x's path already branches at depth d, the new key just adds a child
     * there (and a leaf, or a compressed tail and a leaf). Otherwise depth d lies inside a compressed chain of x's
     * path, which raxInsert splits: a trimmed head stays when the chain started above d, a postfix node when it
     * goes on below d.
     */
    private long nodesAddedBy(StreamId key) {
        if (map.isEmpty()) {
            return 1; // the head becomes a compressed node of the whole key, followed by the key's leaf
        }
        StreamId lower = map.lowerKey(key);
        StreamId higher = map.higherKey(key);
        int lowerShared = lower == null ? -1 : sharedBytes(lower, key);
        int higherShared = higher == null ? -1 : sharedBytes(higher, key);
        int d = Math.max(lowerShared, higherShared);
        StreamId neighbour = lowerShared >= higherShared ? lower : higher;
        long tail = d == KEY_BYTES - 1 ? 1 : 2;
        if (branchesAt(neighbour, d)) {
            return tail;
        }
        long trimmedHead = d == 0 || branchesAt(neighbour, d - 1) ? 0 : 1;
        long postfix = d + 1 == KEY_BYTES || branchesAt(neighbour, d + 1) ? 0 : 1;
        return trimmedHead + postfix + tail;
    }

    /** Whether some key of the map shares exactly {@code depth} leading bytes with {@code x} (a key of the map). */
    private boolean branchesAt(StreamId x, int depth) {
        StreamId sameFrom = withTail(x, depth, false);
        StreamId sameTo = withTail(x, depth, true);
        StreamId closerFrom = withTail(x, depth + 1, false);
        StreamId closerTo = withTail(x, depth + 1, true);
        StreamId below = map.ceilingKey(sameFrom);
        if (below != null && below.lessThan(closerFrom)) {
            return true;
        }
        StreamId above = map.floorKey(sameTo);
        return above != null && above.greaterThan(closerTo);
    }

    /** x with its bytes from {@code depth} on all zero (or all 0xff). */
    private static StreamId withTail(StreamId x, int depth, boolean ones) {
        if (depth >= KEY_BYTES) {
            return x;
        }
        if (depth >= 8) {
            long keep = keepMask(depth - 8);
            return new StreamId(x.ms(), ones ? x.seq() | ~keep : x.seq() & keep);
        }
        long keep = keepMask(depth);
        return new StreamId(ones ? x.ms() | ~keep : x.ms() & keep, ones ? -1L : 0);
    }

    /** A mask keeping the first {@code bytes} bytes (0..7) of a big-endian long. */
    private static long keepMask(int bytes) {
        return bytes == 0 ? 0 : -1L << (64 - 8 * bytes);
    }

    /** How many leading bytes of the 16-byte encodings are equal. */
    static int sharedBytes(StreamId a, StreamId b) {
        if (a.ms() != b.ms()) {
            return Long.numberOfLeadingZeros(a.ms() ^ b.ms()) / 8;
        }
        if (a.seq() != b.seq()) {
            return 8 + Long.numberOfLeadingZeros(a.seq() ^ b.seq()) / 8;
        }
        return KEY_BYTES;
    }
}
