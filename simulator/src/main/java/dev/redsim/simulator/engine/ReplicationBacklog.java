package dev.redsim.simulator.engine;

/**
 * The replication backlog (Redis's repl_backlog): the last {@code repl-backlog-size} bytes of the replication
 * stream, so that a replica that lost its link can continue from its offset (PSYNC answered +CONTINUE) instead of
 * loading a new RDB. A ring of bytes: appending is O(n) in the bytes appended, reading back O(n) in the bytes read.
 */
final class ReplicationBacklog {
    private byte[] ring;
    /** Where the next byte goes in the ring. */
    private int writeIndex;
    /** How many bytes of history the ring holds (at most its size). */
    private int histlen;
    /** The stream offset of the byte after the last one held (the master's master_repl_offset). */
    private long endOffset;

    ReplicationBacklog(int size, long endOffset) {
        this.ring = new byte[Math.max(1, size)];
        this.endOffset = endOffset;
    }

    void append(byte[] bytes) {
        endOffset += bytes.length;
        int from = Math.max(0, bytes.length - ring.length); // only the tail fits when one write outgrows the ring
        for (int i = from; i < bytes.length; ) {
            int chunk = Math.min(bytes.length - i, ring.length - writeIndex);
            System.arraycopy(bytes, i, ring, writeIndex, chunk);
            writeIndex = (writeIndex + chunk) % ring.length;
            i += chunk;
        }
        histlen = (int) Math.min(ring.length, (long) histlen + bytes.length);
    }

    /** INFO's repl_backlog_first_byte_offset: the offset of the first byte held (offsets count from 1). */
    long firstByteOffset() {
        return endOffset - histlen + 1;
    }

    long histlen() {
        return histlen;
    }

    int size() {
        return ring.length;
    }

    /**
     * Whether a replica asking for the stream from byte {@code psyncOffset} on (PSYNC's offset: the last byte it
     * processed plus one) can continue from here: that byte is held, or is the next one to come.
     */
    boolean holdsFrom(long psyncOffset) {
        return psyncOffset >= firstByteOffset() && psyncOffset <= firstByteOffset() + histlen;
    }

    /** The bytes from stream byte {@code psyncOffset} to the end ({@link #holdsFrom} must be true). */
    byte[] from(long psyncOffset) {
        return tail((int) (endOffset - psyncOffset + 1));
    }

    private byte[] tail(int length) {
        byte[] out = new byte[length];
        int start = Math.floorMod(writeIndex - length, ring.length);
        for (int i = 0; i < length; ) {
            int chunk = Math.min(length - i, ring.length - start);
            System.arraycopy(ring, start, out, i, chunk);
            start = (start + chunk) % ring.length;
            i += chunk;
        }
        return out;
    }

    /** CONFIG SET repl-backlog-size: a new ring keeps as much of the newest history as fits. */
    void resize(int size) {
        size = Math.max(1, size);
        if (size == ring.length) {
            return;
        }
        int keep = (int) Math.min(histlen, size);
        byte[] kept = tail(keep);
        ring = new byte[size];
        writeIndex = 0;
        histlen = 0;
        long end = endOffset;
        endOffset -= keep;
        append(kept);
        endOffset = end;
    }
}
