package dev.redsim.simulator.scripting;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Buffers for the replies redis.call reads back: plain heap arrays. Netty's unpooled allocator answers ioBuffer with
 * a direct buffer (a native allocation and a Cleaner each) whenever Unsafe is there, which cost a script more than
 * many of the commands it called; these bytes never reach a socket, so the heap serves them.
 */
final class HeapReplyAllocator extends AbstractByteBufAllocator {
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
        return Unpooled.buffer(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return Unpooled.buffer(initialCapacity, maxCapacity); // never asked for: nothing here goes to a socket
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }
}
