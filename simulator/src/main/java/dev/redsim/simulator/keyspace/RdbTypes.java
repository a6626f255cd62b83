package dev.redsim.simulator.keyspace;

import dev.redsim.simulator.protocol.DoubleFormat;

import java.nio.charset.StandardCharsets;

/** The RDB object types Redis 7.0 writes (rdb.h), and the encoding details DUMP shares between value types. */
final class RdbTypes {
    static final int STRING = 0;
    static final int SET = 2;
    static final int HASH = 4;
    static final int ZSET_2 = 5;
    static final int SET_INTSET = 11;
    static final int HASH_LISTPACK = 16;
    static final int ZSET_LISTPACK = 17;
    static final int LIST_QUICKLIST_2 = 18;
    static final int STREAM_LISTPACKS_2 = 19;
    static final int QUICKLIST_NODE_PLAIN = 1;
    static final int QUICKLIST_NODE_PACKED = 2;

    /** list-max-listpack-size -2: a quicklist node's listpack stays within 8 KB. */
    private static final int NODE_BYTES = 8192;

    private RdbTypes() {
    }

    /**
     * Whether a quicklist node of {@code nodeBytes} takes one more element of {@code length} bytes
     * (_quicklistNodeAllowInsert in 7.0: the node's size, the element's and an estimated overhead of 8 bytes
     * stay within 8 KB; measured against redis-server's DUMP of multi-node lists).
     */
    static boolean quicklistNodeAccepts(int nodeBytes, int length) {
        return (long) nodeBytes + length + 8 <= NODE_BYTES;
    }

    /** A score as a sorted set's listpack holds it (d2string): an integer's digits, else "%.17g". */
    static byte[] listpackScore(double score) {
        String text;
        if (Double.isNaN(score)) {
            text = "nan";
        } else if (Double.isInfinite(score)) {
            text = score < 0 ? "-inf" : "inf";
        } else if (score == 0) {
            text = Double.doubleToRawLongBits(score) < 0 ? "-0" : "0";
        } else if (score > -4503599627370495.0 && score < 4503599627370496.0 && score == (double) (long) score) {
            text = Long.toString((long) score);
        } else {
            text = DoubleFormat.g(score, 17);
        }
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
