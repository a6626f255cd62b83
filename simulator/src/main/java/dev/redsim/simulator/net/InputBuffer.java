package dev.redsim.simulator.net;

import dev.redsim.simulator.protocol.Input;

/**
 * A connection's query buffer: the bytes read from its socket and not yet decoded, in one array between a read index
 * and a write index. Room for a read is made by moving the unread bytes to the front when that is enough, else by
 * growing; an empty buffer that grew past {@link #SHRINK_ABOVE} goes back to a small array, as Redis shrinks an idle
 * client's query buffer, so one big argument does not pin megabytes to a connection for its lifetime.
 */
final class InputBuffer implements Input {
    /** The array a connection gets for its first read (and after shrinking), unless a read asks for more. */
    static final int SMALL = 16 * 1024;
    /** An empty buffer larger than this (and than the read asks for) is replaced by a small one. */
    static final int SHRINK_ABOVE = 64 * 1024;

    private static final byte[] NONE = new byte[0];

    private byte[] array = NONE; // no memory for a connection that never sends anything
    private int readIndex;
    private int writeIndex;

    @Override
    public int readableBytes() {
        return writeIndex - readIndex;
    }

    @Override
    public void peek(byte[] target, int offset, int length) {
        checkReadable(length);
        System.arraycopy(array, readIndex, target, offset, length);
    }

    @Override
    public void read(byte[] target, int offset, int length) {
        peek(target, offset, length);
        readIndex += length;
    }

    @Override
    public void skip(int length) {
        checkReadable(length);
        readIndex += length;
    }

    /**
     * Makes room for a read of {@code size} bytes after the unread ones, shrinking, compacting or growing the array as
     * needed; the read then goes into {@link #array()} from {@link #writeIndex()}.
     */
    void prepareForRead(int size) {
        int readable = readableBytes();
        if (readable == 0) {
            readIndex = 0;
            writeIndex = 0;
            if (array.length > SHRINK_ABOVE && array.length > size) {
                array = new byte[Math.max(SMALL, size)];
            }
        }
        if (array.length - writeIndex >= size) {
            return;
        }
        if (array.length - readable >= size) {
            System.arraycopy(array, readIndex, array, 0, readable); // compacting is enough
        } else {
            // at least doubling, so a big argument arriving in many reads is copied a bounded number of times
            long wanted = Math.max((long) readable + size, Math.max(SMALL, 2L * array.length));
            byte[] grown = new byte[(int) Math.min(wanted, Integer.MAX_VALUE - 8)];
            if (grown.length - readable < size) {
                throw new IllegalStateException("input buffer cannot hold " + readable + " + " + size + " bytes");
            }
            System.arraycopy(array, readIndex, grown, 0, readable);
            array = grown;
        }
        readIndex = 0;
        writeIndex = readable;
    }

    /** The array a read writes into, from {@link #writeIndex()}; valid until the next {@link #prepareForRead}. */
    byte[] array() {
        return array;
    }

    int writeIndex() {
        return writeIndex;
    }

    /** Room after the write index. */
    int writableBytes() {
        return array.length - writeIndex;
    }

    /** Makes {@code count} bytes written into {@link #array()} at the write index readable. */
    void written(int count) {
        if (count < 0 || count > writableBytes()) {
            throw new IndexOutOfBoundsException("written " + count + ", room for " + writableBytes());
        }
        writeIndex += count;
    }

    /** The array's size (tests: growing and shrinking). */
    int capacity() {
        return array.length;
    }

    private void checkReadable(int length) {
        if (length < 0 || length > readableBytes()) {
            throw new IndexOutOfBoundsException("asked for " + length + " bytes, " + readableBytes() + " readable");
        }
    }
}
