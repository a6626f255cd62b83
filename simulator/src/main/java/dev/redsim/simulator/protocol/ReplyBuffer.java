package dev.redsim.simulator.protocol;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * One connection's replies not yet handed to its socket (Redis's reply buffer and reply list): a heap array the
 * connection keeps for ordinary batches, and for big replies more arrays of at most {@link #PIECE} bytes each, so a
 * reply of hundreds of megabytes is never one array (one array of its size is made without a safepoint poll, which
 * stalls every thread meanwhile: decision 0048) and the transport copies it into socket memory piece by piece.
 */
final class ReplyBuffer {
    /** The most one array holds once the batch has outgrown the kept one. */
    static final int PIECE = 1024 * 1024;
    /** What the connection keeps between batches (Redis's per-client reply buffer, PROTO_REPLY_CHUNK_BYTES). */
    static final int KEPT = 16 * 1024;
    private static final byte[] NONE = new byte[0];

    /** The array being written. */
    private byte[] current = NONE;
    private int length;
    /** The batch's earlier arrays, full, in order; then {@link #current}'s bytes when the batch is taken. */
    private final Outgoing pending = new Outgoing();

    int bytes() {
        return (int) Math.min(Integer.MAX_VALUE, pending.bytes() + length);
    }

    /**
     * The batch's bytes, as slices valid until {@link #clear()}, which must come before anything more is written (the
     * transport writes them, then the buffer is emptied).
     */
    Outgoing take() {
        if (length > 0) {
            pending.add(current, 0, length);
            length = 0;
        }
        return pending;
    }

    /** Empties the buffer; an array grown past an ordinary batch is let go, as Redis lets its buffer shrink. */
    void clear() {
        pending.clear();
        length = 0;
        if (current.length > KEPT) {
            current = NONE;
        }
    }

    void writeByte(int b) {
        if (length == current.length) {
            makeRoom(1);
        }
        current[length++] = (byte) b;
    }

    void writeBytes(byte[] bytes) {
        writeBytes(bytes, 0, bytes.length);
    }

    void writeBytes(byte[] bytes, int offset, int count) {
        while (count > 0) {
            if (length == current.length) {
                makeRoom(count);
            }
            int take = Math.min(count, current.length - length);
            System.arraycopy(bytes, offset, current, length, take);
            length += take;
            offset += take;
            count -= take;
        }
    }

    void writeCharSequence(CharSequence text, Charset charset) {
        if (charset == StandardCharsets.US_ASCII || charset == StandardCharsets.UTF_8 && isAscii(text)) {
            for (int i = 0; i < text.length(); i++) {
                writeByte(text.charAt(i));
            }
        } else {
            writeBytes(text.toString().getBytes(charset));
        }
    }

    private static boolean isAscii(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** Room for at least one more byte: the array grows up to a piece, then a full one joins the pending slices. */
    private void makeRoom(int wanted) {
        if (current.length < PIECE) {
            long grown = Math.max(Math.max(256, current.length * 2L), (long) length + wanted);
            byte[] larger = new byte[(int) Math.min(PIECE, grown)];
            System.arraycopy(current, 0, larger, 0, length);
            current = larger;
            return;
        }
        pending.add(current, 0, length);
        current = new byte[PIECE];
        length = 0;
    }
}
