package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.protocol.DoubleFormat;
import dev.redsim.simulator.util.ScanDict;
import dev.redsim.simulator.util.rdb.Listpack;
import dev.redsim.simulator.util.rdb.RdbWriter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.redsim.simulator.keyspace.MemoryLayout.DICT;
import static dev.redsim.simulator.keyspace.MemoryLayout.DICT_ENTRY;
import static dev.redsim.simulator.keyspace.MemoryLayout.EXPECTED_SKIPLIST_NODE;
import static dev.redsim.simulator.keyspace.MemoryLayout.ROBJ;
import static dev.redsim.simulator.keyspace.MemoryLayout.extrapolate;
import static dev.redsim.simulator.keyspace.MemoryLayout.jemalloc;
import static dev.redsim.simulator.keyspace.MemoryLayout.listpackEntry;
import static dev.redsim.simulator.keyspace.MemoryLayout.sds;
import static dev.redsim.simulator.keyspace.MemoryLayout.slots;

/**
 * A sorted set: a member-to-entry map for O(1) score lookups plus an order-statistic skiplist ordered by
 * (score, member bytes) for O(log n) ranks and ranges, as Redis's skiplist encoding. OBJECT ENCODING still
 * reports listpack while Redis would keep the set small, and switches one way when a write crosses the limits.
 */
public final class SortedSetValue extends AccessTracked implements RedisValue {
    /** The member-to-node dict of Redis's zset, which ZSCAN walks with Redis's cursor. */
    private final ScanDict<Bytes, ZSkipList.Node> members = new ScanDict<>();
    private final ZSkipList list = new ZSkipList();
    private boolean skiplist;
    /**
     * While the set is a listpack: the bytes of its entries (member and score text each), kept as members come and go,
     * so used_memory's measuring after every write costs O(1) instead of formatting every score (decision 0025).
     */
    private long listpackEntryBytes;

    public SortedSetValue() {
    }
    /**
     * A new set for ZADD/ZINCRBY, whose first member is given: Redis 7.0 starts it as a skiplist only when
     * listpacks are disabled (zset-max-listpack-entries 0) or that first member is already too long; later
     * members convert it as they cross the limits.
     */
    public static SortedSetValue create(EncodingLimits limits, byte[] firstMember) {
        SortedSetValue value = new SortedSetValue();
        value.skiplist = limits.zsetMaxListpackEntries() == 0 || firstMember.length > limits.zsetMaxListpackValue();
        return value;
    }

    /**
     * A set for a computed result (ZUNION, ZINTER...), built as Redis builds it, in a skiplist that keeps -0 as
     * it is; {@link #encodeAsResult} then picks the encoding it is stored with.
     */
    public static SortedSetValue forResult() {
        SortedSetValue value = new SortedSetValue();
        value.skiplist = true;
        return value;
    }

    /**
     * Picks the encoding of a computed result about to be stored (ZUNIONSTORE, ZRANGESTORE...): Redis converts
     * those back to listpack when they fit, and a listpack reads -0 back as 0.
     */
    public void encodeAsResult(EncodingLimits limits) {
        long longest = 0;
        List<Bytes> negativeZeros = new ArrayList<>();
        for (ZSkipList.Node n = list.first(); n != null; n = n.next()) {
            longest = Math.max(longest, n.member().length());
            if (n.score() == 0 && Double.compare(n.score(), 0.0) != 0) {
                negativeZeros.add(n.member());
            }
        }
        skiplist = size() > limits.zsetMaxListpackEntries() || longest > limits.zsetMaxListpackValue();
        if (!skiplist) {
            for (Bytes member : negativeZeros) {
                put(member, 0.0);
            }
            listpackEntryBytes = 0;
            for (ZSkipList.Node n = list.first(); n != null; n = n.next()) {
                listpackEntryBytes += listpackBytes(n.member(), n.score());
            }
        }
    }

    /** An entry's bytes in a listpack: its member, then its score as text. */
    private static long listpackBytes(Bytes member, double score) {
        return listpackEntry(member.bytes()) + listpackEntry(DoubleFormat.reply(score).getBytes(StandardCharsets.US_ASCII));
    }

    public int size() {
        return members.size();
    }

    /**
     * One step of ZSCAN over a skiplist-encoded set (dictScan on its member dict): hands the members of the cursor's
     * bucket(s) to {@code action} and returns the next cursor, 0 at the end.
     */
    public long scanStep(long cursor, java.util.function.Consumer<Bytes> action) {
        return members.scan(cursor, (member, node) -> action.accept(member));
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    public boolean contains(Bytes member) {
        return members.containsKey(member);
    }

    /** The member's score, or null when absent. */
    public Double score(Bytes member) {
        ZSkipList.Node node = members.get(member);
        return node == null ? null : node.score();
    }

    /**
     * Sets a member's score; returns true when the member is new. A listpack keeps scores as text, where -0
     * reads back as 0; the skiplist keeps the double itself.
     */
    public boolean put(Bytes member, double score) {
        if (!skiplist && score == 0) {
            score = 0.0;
        }
        ZSkipList.Node old = members.get(member);
        if (old != null) {
            if (Double.compare(old.score(), score) == 0) {
                return false;
            }
            list.delete(old.score(), member);
        }
        members.put(member, list.insert(score, member));
        if (!skiplist) {
            listpackEntryBytes += listpackBytes(member, score) - (old == null ? 0 : listpackBytes(member, old.score()));
        }
        return old == null;
    }

    public boolean remove(Bytes member) {
        ZSkipList.Node old = members.remove(member);
        if (old == null) {
            return false;
        }
        list.delete(old.score(), member);
        if (!skiplist) {
            listpackEntryBytes -= listpackBytes(member, old.score());
        }
        return true;
    }

    /** Removes an entry found by a walk over the list. */
    public void remove(ZSkipList.Node node) {
        members.remove(node.member());
        list.delete(node.score(), node.member());
        if (!skiplist) {
            listpackEntryBytes -= listpackBytes(node.member(), node.score());
        }
    }

    /** The 0-based rank in ascending order, or -1 when absent. */
    public long rank(Bytes member) {
        ZSkipList.Node node = members.get(member);
        return node == null ? -1 : list.rank(node.score(), member) - 1;
    }

    /** The 0-based ascending rank of an entry of this set. */
    public long rank(ZSkipList.Node node) {
        return list.rank(node.score(), node.member()) - 1;
    }

    /** The entry at a 0-based ascending rank, or null. */
    public ZSkipList.Node byRank(long rank) {
        return list.byRank(rank + 1);
    }

    public ZSkipList.Node first() {
        return list.first();
    }

    public ZSkipList.Node last() {
        return list.last();
    }

    /**
     * The first entry in range. A listpack is searched the way Redis searches one (zzlFirstInRange /
     * zzlFirstInLexRange: the range must touch the set's ends, then a scan from the start stops at the first
     * entry past the minimum), which differs from a skiplist descent when a lex range spans members of different
     * scores: there, "in range" is not one contiguous run and the answer depends on the path taken.
     */
    public ZSkipList.Node firstIn(ZSkipList.Range range) {
        if (skiplist) {
            return list.firstIn(range);
        }
        if (!touchesEnds(range)) {
            return null;
        }
        for (ZSkipList.Node n = list.first(); n != null; n = n.next()) {
            if (range.reachedMin(n)) {
                return range.withinMax(n) ? n : null;
            }
        }
        return null;
    }

    /** The last entry in range; a listpack is scanned from the end, as Redis does (see {@link #firstIn}). */
    public ZSkipList.Node lastIn(ZSkipList.Range range) {
        if (skiplist) {
            return list.lastIn(range);
        }
        if (!touchesEnds(range)) {
            return null;
        }
        for (ZSkipList.Node n = list.last(); n != null; n = n.previous()) {
            if (range.withinMax(n)) {
                return range.reachedMin(n) ? n : null;
            }
        }
        return null;
    }

    /** zzlIsInRange: a non-empty range whose minimum is not past the last entry nor its maximum before the first. */
    private boolean touchesEnds(ZSkipList.Range range) {
        ZSkipList.Node first = list.first();
        return !range.isEmpty() && first != null && range.reachedMin(list.last()) && range.withinMax(first);
    }

    /**
     * How many entries fall in the range (ZCOUNT, ZLEXCOUNT), computed the way Redis computes it for the
     * encoding, which matters for lex ranges over members of different scores, where "in range" is not one
     * contiguous run: a listpack counts forward from the first entry in range while entries stay under the
     * maximum; a skiplist subtracts the ranks of the first and last entries in range.
     */
    public long count(ZSkipList.Range range) {
        ZSkipList.Node first = firstIn(range);
        if (first == null) {
            return 0;
        }
        if (!skiplist) {
            long count = 0;
            for (ZSkipList.Node n = first; n != null && range.withinMax(n); n = n.next()) {
                count++;
            }
            return count;
        }
        long count = size() - rank(first);
        ZSkipList.Node last = lastIn(range);
        if (last != null) {
            count -= size() - (rank(last) + 1);
        }
        return count;
    }

    public boolean isListpack() {
        return !skiplist;
    }

    @Override
    public String typeName() {
        return "zset";
    }

    @Override
    public String encoding() {
        return skiplist ? "skiplist" : "listpack";
    }

    /** Converts to skiplist whatever the size: SORT does this to the set it reads (Redis's zsetConvert). */
    public void convertToSkiplist() {
        skiplist = true;
    }

    /** Converts to skiplist (one way) when a write crosses zset-max-listpack-entries/value. */
    public void updateEncoding(EncodingLimits limits, byte[] added) {
        if (skiplist) {
            return;
        }
        if (members.size() > limits.zsetMaxListpackEntries()
                || (added != null && added.length > limits.zsetMaxListpackValue())) {
            skiplist = true;
        }
    }

    @Override
    public SortedSetValue copy() {
        SortedSetValue copy = new SortedSetValue();
        copy.skiplist = skiplist;
        copy.listpackEntryBytes = listpackEntryBytes;
        for (ZSkipList.Node n = list.first(); n != null; n = n.next()) {
            copy.members.put(n.member(), copy.list.insert(n.score(), n.member()));
        }
        return copy;
    }

    /** Blocking pops (BLPOP, BLMOVE, ... / BZPOPMIN, BZMPOP) wait for this type. */
    @Override
    public boolean servesBlockedClients() {
        return true;
    }

    /**
     * RDB_TYPE_ZSET_LISTPACK with member and score pairs (the score as Redis's listpack holds it), or
     * RDB_TYPE_ZSET_2 with members from the highest score down and binary scores.
     */
    @Override
    public void writeRdb(RdbWriter out) {
        if (!skiplist) {
            out.writeByte(RdbTypes.ZSET_LISTPACK);
            Listpack lp = new Listpack();
            for (ZSkipList.Node n = list.first(); n != null; n = n.next()) {
                lp.add(n.member().bytes());
                lp.add(RdbTypes.listpackScore(n.score()));
            }
            out.writeString(lp.toByteArray());
            return;
        }
        out.writeByte(RdbTypes.ZSET_2);
        out.writeLength(size());
        for (ZSkipList.Node n = list.last(); n != null; n = n.previous()) {
            out.writeString(n.member().bytes());
            out.writeBinaryDouble(n.score());
        }
    }

    /** MEMORY USAGE of this value, without its key (see {@link MemoryLayout}). */
    @Override
    public long memoryUsage(long samples) {
        if (isListpack()) {
            return ROBJ + jemalloc(7 + listpackEntryBytes); // a listpack's header and end byte, then its entries
        }
        // zset, skiplist header node of 32 levels, dict and its table; each element: member sds, dict entry and
        // a skiplist node, whose height is random in Redis: its expected allocation is used.
        long fixed = ROBJ + 16 + 32 + DICT + 8L * slots(size()) + jemalloc(32 + 32 * 16);
        long sampled = 0;
        long count = 0;
        for (ZSkipList.Node n = first(); n != null && count < samples; n = n.next()) {
            sampled += sds(n.member().length()) + DICT_ENTRY + EXPECTED_SKIPLIST_NODE;
            count++;
        }
        return fixed + extrapolate(sampled, count, size());
    }
}
