package dev.redsim.simulator.keyspace;

import java.util.concurrent.ThreadLocalRandom;

/**
 * An order-statistic skiplist of (score, member) entries, ordered by score and then by member bytes (memcmp), as
 * Redis's zskiplist: every forward link records how many entries it spans, so rank lookups, element-by-rank and
 * range boundaries all cost O(log n) expected.
 */
public final class ZSkipList {
    private static final int MAX_LEVEL = 32;
    private static final double LEVEL_UP = 0.25;

    /** One entry; its links are private to the list, its score and member are read by commands. */
    public static final class Node {
        private final double score;
        private final Bytes member;
        /** Not final for the head only, whose links grow with the list's level. */
        private Node[] next;
        private long[] span;
        private Node previous;

        private Node(double score, Bytes member, int level) {
            this.score = score;
            this.member = member;
            this.next = new Node[level];
            this.span = new long[level];
        }

        public double score() {
            return score;
        }

        public Bytes member() {
            return member;
        }

        /** The following entry in ascending order, or null. */
        public Node next() {
            return next[0];
        }

        /** The preceding entry in ascending order, or null. */
        public Node previous() {
            return previous;
        }
    }

    /**
     * A score or lex interval. The list walks with these two tests, which must be monotone along the order
     * (true for score ranges, and for lex ranges when all scores are equal, which is what Redis assumes too).
     */
    public interface Range {
        /** True when the node is at or after the start of the interval. */
        boolean reachedMin(Node node);

        /** True when the node is at or before the end of the interval. */
        boolean withinMax(Node node);

        /** True when no node can be in the interval. */
        boolean isEmpty();
    }

    /**
     * The head's links and the scratch arrays grow with the list's level ({@link #growLevels}) instead of having all
     * 32 levels from the start, as Redis's header has: the levels come one at a time (a quarter of the nodes reach
     * level 2), and 32-level arrays cost a small sorted set about 870 bytes it never uses.
     */
    private final Node head = new Node(0, null, 1);
    /** Scratch arrays for insert and delete, reused so a write allocates only its node (one thread uses a list). */
    private Node[] update = new Node[1];
    private long[] rank = new long[1];
    private Node tail;
    private int level = 1;
    private long length;

    public long length() {
        return length;
    }

    public Node first() {
        return head.next[0];
    }

    public Node last() {
        return tail;
    }

    private static int compare(double score, Bytes member, Node node) {
        int byScore = Double.compare(score, node.score);
        if (byScore != 0 && !(score == node.score)) {
            return byScore;
        }
        return member.compareTo(node.member);
    }

    private static int randomLevel() {
        int lvl = 1;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (lvl < MAX_LEVEL && random.nextDouble() < LEVEL_UP) {
            lvl++;
        }
        return lvl;
    }

    /** Inserts an entry that is not in the list yet. */
    public Node insert(double score, Bytes member) {
        Node x = head;
        for (int i = level - 1; i >= 0; i--) {
            rank[i] = i == level - 1 ? 0 : rank[i + 1];
            while (x.next[i] != null && compare(score, member, x.next[i]) > 0) {
                rank[i] += x.span[i];
                x = x.next[i];
            }
            update[i] = x;
        }
        int newLevel = randomLevel();
        if (newLevel > level) {
            growLevels(newLevel);
            for (int i = level; i < newLevel; i++) {
                rank[i] = 0;
                update[i] = head;
                head.span[i] = length;
            }
            level = newLevel;
        }
        Node node = new Node(score, member, newLevel);
        for (int i = 0; i < newLevel; i++) {
            node.next[i] = update[i].next[i];
            update[i].next[i] = node;
            node.span[i] = update[i].span[i] - (rank[0] - rank[i]);
            update[i].span[i] = rank[0] - rank[i] + 1;
        }
        for (int i = newLevel; i < level; i++) {
            update[i].span[i]++;
        }
        node.previous = update[0] == head ? null : update[0];
        if (node.next[0] != null) {
            node.next[0].previous = node;
        } else {
            tail = node;
        }
        length++;
        return node;
    }

    /** Makes room for links up to {@code levels} in the head and the scratch arrays, keeping what they hold. */
    private void growLevels(int levels) {
        if (head.next.length < levels) {
            head.next = java.util.Arrays.copyOf(head.next, levels);
            head.span = java.util.Arrays.copyOf(head.span, levels);
            update = java.util.Arrays.copyOf(update, levels);
            rank = java.util.Arrays.copyOf(rank, levels);
        }
    }

    /** Removes the entry with exactly this score and member; false when absent. */
    public boolean delete(double score, Bytes member) {
        Node x = head;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next[i] != null && compare(score, member, x.next[i]) > 0) {
                x = x.next[i];
            }
            update[i] = x;
        }
        x = x.next[0];
        if (x == null || compare(score, member, x) != 0) {
            return false;
        }
        unlink(x);
        return true;
    }

    private void unlink(Node x) {
        for (int i = 0; i < level; i++) {
            if (update[i].next[i] == x) {
                update[i].span[i] += x.span[i] - 1;
                update[i].next[i] = x.next[i];
            } else {
                update[i].span[i]--;
            }
        }
        if (x.next[0] != null) {
            x.next[0].previous = x.previous;
        } else {
            tail = x.previous;
        }
        while (level > 1 && head.next[level - 1] == null) {
            level--;
        }
        length--;
    }

    /** The 1-based rank of an entry, 0 when absent. */
    public long rank(double score, Bytes member) {
        long rank = 0;
        Node x = head;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next[i] != null && compare(score, member, x.next[i]) >= 0) {
                rank += x.span[i];
                x = x.next[i];
            }
            if (x != head && compare(score, member, x) == 0) {
                return rank;
            }
        }
        return 0;
    }

    /** The entry at a 1-based rank, or null when out of range. */
    public Node byRank(long rank) {
        if (rank < 1 || rank > length) {
            return null;
        }
        long traversed = 0;
        Node x = head;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next[i] != null && traversed + x.span[i] <= rank) {
                traversed += x.span[i];
                x = x.next[i];
            }
            if (traversed == rank) {
                return x;
            }
        }
        return null;
    }

    /** The first entry inside the range, or null. */
    public Node firstIn(Range range) {
        if (range.isEmpty() || tail == null || !range.reachedMin(tail)) {
            return null;
        }
        Node x = head;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next[i] != null && !range.reachedMin(x.next[i])) {
                x = x.next[i];
            }
        }
        x = x.next[0];
        return x != null && range.withinMax(x) ? x : null;
    }

    /** The last entry inside the range, or null. */
    public Node lastIn(Range range) {
        Node first = first();
        if (range.isEmpty() || first == null || !range.withinMax(first)) {
            return null;
        }
        Node x = head;
        for (int i = level - 1; i >= 0; i--) {
            while (x.next[i] != null && range.withinMax(x.next[i])) {
                x = x.next[i];
            }
        }
        return x != head && range.reachedMin(x) ? x : null;
    }
}
