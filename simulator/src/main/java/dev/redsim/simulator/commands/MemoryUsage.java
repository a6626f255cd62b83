package dev.redsim.simulator.commands;

import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.HashValue;
import dev.redsim.simulator.keyspace.ListValue;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.SetValue;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;
import dev.redsim.simulator.keyspace.StringValue;
import dev.redsim.simulator.protocol.DoubleFormat;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * What MEMORY USAGE reports: the bytes Redis 7.0 (64-bit, jemalloc) would use for a key and its value, from the
 * value's encoding and contents, following the layout of Redis's structures (robj, sds, dictEntry, listpack,
 * intset, quicklist). Like Redis, big hashtable-encoded values are sampled and extrapolated.
 */
final class MemoryUsage {
    private static final int ROBJ = 16;
    private static final int DICT_ENTRY = 24;
    private static final int DICT = 56;
    private static final int QUICKLIST = 40;
    private static final int QUICKLIST_NODE = 40;
    private static final int LISTPACK_NODE_BYTES = 8192;
    /** A skiplist node has 24 bytes plus 16 per level, levels drawn with p = 1/4: about 53 bytes allocated. */
    private static final int EXPECTED_SKIPLIST_NODE = 53;

    private MemoryUsage() {
    }

    /** Key and value together, as MEMORY USAGE answers. */
    static long of(Bytes key, RedisValue value, long samples) {
        return valueSize(value, samples) + sds(key.length()) + DICT_ENTRY;
    }

    private static long valueSize(RedisValue value, long samples) {
        if (value instanceof StringValue s) {
            return string(s);
        }
        if (value instanceof ListValue l) {
            return list(l, samples);
        }
        if (value instanceof HashValue h) {
            return hash(h, samples);
        }
        if (value instanceof SetValue s) {
            return set(s, samples);
        }
        return zset((SortedSetValue) value, samples);
    }

    private static long string(StringValue s) {
        return switch (s.encoding()) {
            case "int" -> ROBJ;
            case "embstr" -> jemalloc(ROBJ + 3 + s.length() + 1);
            default -> ROBJ + sds(s.length());
        };
    }

    /** A quicklist of listpack nodes of up to 8 kB; like Redis, the first nodes are sampled and extrapolated. */
    private static long list(ListValue l, long samples) {
        long nodes = 0;
        long sampled = 0;
        long nodeBytes = 0;
        for (int i = 0; i < l.size(); i++) {
            long entry = listpackEntry(l.get(i));
            if (nodeBytes > 0 && 7 + nodeBytes + entry > LISTPACK_NODE_BYTES) {
                sampled += nodes < samples ? QUICKLIST_NODE + jemalloc(7 + nodeBytes) : 0;
                nodes++;
                nodeBytes = 0;
            }
            nodeBytes += entry;
        }
        if (nodeBytes > 0) {
            sampled += nodes < samples ? QUICKLIST_NODE + jemalloc(7 + nodeBytes) : 0;
            nodes++;
        }
        return ROBJ + QUICKLIST + extrapolate(sampled, Math.min(nodes, samples), nodes);
    }

    private static long hash(HashValue h, long samples) {
        Map<Bytes, byte[]> fields = h.fields();
        if (h.encoding().equals("listpack")) {
            long bytes = 7;
            for (Map.Entry<Bytes, byte[]> e : fields.entrySet()) {
                bytes += listpackEntry(e.getKey().bytes()) + listpackEntry(e.getValue());
            }
            return ROBJ + jemalloc(bytes);
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

    private static long set(SetValue s, long samples) {
        int size = s.size();
        if (s.isIntset()) {
            int[] width = {2};
            s.forEach(member -> {
                long v = Numbers.parseLongStrict(member);
                width[0] = Math.max(width[0], v == (short) v ? 2 : v == (int) v ? 4 : 8);
            });
            return ROBJ + jemalloc(8L + (long) size * width[0]);
        }
        long sampled = 0;
        long count = Math.min(samples, size);
        for (int i = 0; i < count; i++) {
            sampled += DICT_ENTRY + sds(s.memberAt(i).length);
        }
        return ROBJ + DICT + 8L * slots(size) + extrapolate(sampled, count, size);
    }

    private static long zset(SortedSetValue z, long samples) {
        if (z.isListpack()) {
            long bytes = 7;
            for (ZSkipList.Node n = z.first(); n != null; n = n.next()) {
                bytes += listpackEntry(n.member().bytes())
                        + listpackEntry(DoubleFormat.reply(n.score()).getBytes(StandardCharsets.US_ASCII));
            }
            return ROBJ + jemalloc(bytes);
        }
        // zset, skiplist header node of 32 levels, dict and its table; each element: member sds, dict entry and
        // a skiplist node, whose height is random in Redis: its expected allocation is used.
        long fixed = ROBJ + 16 + 32 + DICT + 8L * slots(z.size()) + jemalloc(32 + 32 * 16);
        long sampled = 0;
        long count = 0;
        for (ZSkipList.Node n = z.first(); n != null && count < samples; n = n.next()) {
            sampled += sds(n.member().length()) + DICT_ENTRY + EXPECTED_SKIPLIST_NODE;
            count++;
        }
        return fixed + extrapolate(sampled, count, z.size());
    }

    private static long extrapolate(long sampled, long count, long size) {
        return count == 0 ? 0 : (long) ((double) sampled / count * size);
    }

    /** Buckets of a Redis dict holding n entries: a power of two, at least 4. */
    private static long slots(long n) {
        long slots = 4;
        while (slots < n) {
            slots <<= 1;
        }
        return slots;
    }

    /** Bytes of one listpack entry: encoding, data and back-length. */
    private static long listpackEntry(byte[] element) {
        Long asInt = element.length <= 20 ? Numbers.parseLongStrict(element) : null;
        long size;
        if (asInt != null) {
            long v = asInt;
            if (v >= 0 && v <= 127) {
                size = 1;
            } else if (v >= -4096 && v <= 4095) {
                size = 2;
            } else if (v == (short) v) {
                size = 3;
            } else if (v >= -(1 << 23) && v < (1 << 23)) {
                size = 4;
            } else if (v == (int) v) {
                size = 5;
            } else {
                size = 9;
            }
        } else {
            int len = element.length;
            size = (len <= 63 ? 1 : len <= 4095 ? 2 : 5) + len;
        }
        long backlen = size <= 127 ? 1 : size < 16383 ? 2 : size < 2097151 ? 3 : size < 268435455 ? 4 : 5;
        return size + backlen;
    }

    /** An sds string's allocation: header by length (sdshdr5 below 32 bytes, but never empty), content, NUL. */
    private static long sds(long len) {
        int header = len > 0 && len < 32 ? 1 : len < 256 ? 3 : len < 65536 ? 5 : len < (1L << 32) ? 9 : 17;
        return jemalloc(header + len + 1);
    }

    /** jemalloc's size class for a request (16-byte quantum, four classes per doubling). */
    static long jemalloc(long n) {
        if (n <= 8) {
            return 8;
        }
        if (n <= 128) {
            return (n + 15) / 16 * 16;
        }
        long group = Long.highestOneBit(n - 1);
        long step = group / 4;
        return (n + step - 1) / step * step;
    }
}
