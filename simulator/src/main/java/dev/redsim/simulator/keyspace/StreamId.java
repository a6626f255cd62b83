package dev.redsim.simulator.keyspace;

import java.nio.charset.StandardCharsets;

/**
 * A stream entry ID: milliseconds and a sequence number, both unsigned 64-bit, ordered as Redis orders them
 * (which is also the order of their 16-byte big-endian encoding, the key of Redis's radix trees).
 */
public record StreamId(long ms, long seq) implements Comparable<StreamId> {
    public static final StreamId MIN = new StreamId(0, 0);
    public static final StreamId MAX = new StreamId(-1L, -1L);

    @Override
    public int compareTo(StreamId other) {
        int byMs = Long.compareUnsigned(ms, other.ms);
        return byMs != 0 ? byMs : Long.compareUnsigned(seq, other.seq);
    }

    public boolean isMin() {
        return ms == 0 && seq == 0;
    }

    public boolean isMax() {
        return ms == -1L && seq == -1L;
    }

    /** The next ID (streamIncrID), or null after the largest one. */
    public StreamId next() {
        if (seq != -1L) {
            return new StreamId(ms, seq + 1);
        }
        return ms == -1L ? null : new StreamId(ms + 1, 0);
    }

    /** The previous ID (streamDecrID), or null before 0-0. */
    public StreamId previous() {
        if (seq != 0) {
            return new StreamId(ms, seq - 1);
        }
        return ms == 0 ? null : new StreamId(ms - 1, -1L);
    }

    public boolean greaterThan(StreamId other) {
        return compareTo(other) > 0;
    }

    public boolean lessThan(StreamId other) {
        return compareTo(other) < 0;
    }

    /** Byte {@code i} (0..15) of the 16-byte big-endian encoding. */
    public int byteAt(int i) {
        long half = i < 8 ? ms : seq;
        return (int) (half >>> (8 * (7 - (i & 7)))) & 0xff;
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(ms) + "-" + Long.toUnsignedString(seq);
    }

    /** The "ms-seq" text replies carry. */
    public byte[] bytes() {
        return toString().getBytes(StandardCharsets.US_ASCII);
    }
}
