package dev.redsim.simulator.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * The bytes a connection's socket has not taken yet, copied (the writer reuses its arrays) into chunks of at most
 * {@link #CHUNK} bytes: Redis's reply list. Chunks are bounded so a 500 MB reply to a slow client is freed as it
 * drains, and so no write ever needs one huge array. Every chunk but the last is full; the last is filled up to
 * {@code tailLength}, and small replies queued one after another share it. Loop thread only.
 */
final class OutputQueue {
    static final int CHUNK = 256 * 1024;
    /** The smallest chunk, so a run of small replies does not make one chunk each. */
    private static final int MIN_CHUNK = 16 * 1024;

    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
    private int headOffset; // bytes of the first chunk already written
    private int tailLength; // bytes of the last chunk that are queued
    private long bytes;

    long bytes() {
        return bytes;
    }

    boolean isEmpty() {
        return bytes == 0;
    }

    /** Copies {@code length} bytes of {@code array} from {@code offset} to the end of the queue. */
    void add(byte[] array, int offset, int length) {
        while (length > 0) {
            byte[] tail = chunks.peekLast();
            if (tail == null || tailLength == tail.length) {
                tail = new byte[Math.min(CHUNK, Math.max(MIN_CHUNK, length))];
                chunks.addLast(tail);
                tailLength = 0;
            }
            int n = Math.min(length, tail.length - tailLength);
            System.arraycopy(array, offset, tail, tailLength, n);
            tailLength += n;
            offset += n;
            length -= n;
            bytes += n;
        }
    }

    /**
     * Writes queued bytes to {@code channel} through {@code direct} (the loop's buffer: a heap buffer would make the
     * JDK allocate and keep a direct copy of its size) until the socket takes no more, the queue is empty, or
     * {@code limit} bytes went (one connection's turn). Returns how many bytes went.
     */
    long writeTo(SocketChannel channel, ByteBuffer direct, long limit) throws IOException {
        long written = 0;
        while (bytes > 0 && written < limit) {
            byte[] head = chunks.peekFirst();
            int end = chunks.size() == 1 ? tailLength : head.length;
            int n = (int) Math.min(Math.min(end - headOffset, direct.capacity()), limit - written);
            direct.clear();
            direct.put(head, headOffset, n);
            direct.flip();
            int taken = channel.write(direct);
            consumed(taken, end);
            written += taken;
            if (taken < n) {
                break; // the socket is full
            }
        }
        return written;
    }

    /** Drops everything queued (the connection closed). */
    void clear() {
        chunks.clear();
        headOffset = 0;
        tailLength = 0;
        bytes = 0;
    }

    private void consumed(int count, int headEnd) {
        headOffset += count;
        bytes -= count;
        if (headOffset == headEnd) {
            chunks.pollFirst();
            headOffset = 0;
            if (chunks.isEmpty()) {
                tailLength = 0;
            }
        }
    }
}
