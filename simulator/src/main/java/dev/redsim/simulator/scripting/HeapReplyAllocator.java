package dev.redsim.simulator.scripting;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * Buffers for the replies redis.call reads back: plain heap arrays, and the same one again for the next call.
 * Netty's unpooled allocator answers ioBuffer with a direct buffer (a native allocation and a Cleaner each) whenever
 * Unsafe is there, which cost a script more than many of the commands it called; and a fresh heap buffer per call
 * (its array, and Netty's leak-detection sampling) was the next cost. These bytes never reach a socket: the script's
 * call reads its reply and releases the buffer before the next call writes one, so one buffer serves them all.
 *
 * <p>Used by the script client's reply only, which one thread at a time writes (the engine thread, or the script
 * thread while the engine waits or is paused: decision 0004's hand-offs order them).
 */
final class HeapReplyAllocator extends AbstractByteBufAllocator {
    /** A released buffer bigger than this goes to the garbage collector: one big reply must not stay held. */
    private static final int KEEP_AT_MOST = 64 * 1024;

    private ReusedBuffer spare;

    HeapReplyAllocator() {
        super(false);
    }

    @Override
    public ByteBuf ioBuffer() {
        return heapBuffer();
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity) {
        return heapBuffer(initialCapacity);
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
        return heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        ReusedBuffer buffer = spare;
        if (buffer != null && buffer.maxCapacity() == maxCapacity) {
            spare = null;
            buffer.reuse();
            return buffer;
        }
        return new ReusedBuffer(this, initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return newHeapBuffer(initialCapacity, maxCapacity); // never asked for: nothing here goes to a socket
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /** A heap buffer that, once released, goes back to its allocator with its array instead of dropping it. */
    private static final class ReusedBuffer extends UnpooledHeapByteBuf {
        private final HeapReplyAllocator owner;

        ReusedBuffer(HeapReplyAllocator owner, int initialCapacity, int maxCapacity) {
            super(owner, initialCapacity, maxCapacity);
            this.owner = owner;
        }

        void reuse() {
            resetRefCnt();
            clear();
        }

        @Override
        protected void deallocate() {
            if (capacity() <= KEEP_AT_MOST) {
                owner.spare = this;
            } else {
                super.deallocate();
            }
        }
    }
}
