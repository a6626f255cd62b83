package dev.redsim.simulator.scripting;

import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The script client's reply buffers: one heap buffer serves every call, handed out empty each time. */
class HeapReplyAllocatorTest {
    @Test
    void aReleasedBufferComesBackEmptyAndUsable() {
        HeapReplyAllocator allocator = new HeapReplyAllocator();
        ByteBuf first = allocator.ioBuffer(256);
        first.writeBytes("+OK\r\n".getBytes(StandardCharsets.US_ASCII));
        first.release();

        ByteBuf second = allocator.ioBuffer(256);
        assertSame(first, second);
        assertEquals(1, second.refCnt());
        assertEquals(0, second.readableBytes());
        assertTrue(second.hasArray());
        second.writeBytes(":1\r\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(":1\r\n", second.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void aBufferInUseIsNeverHandedOutTwice() {
        HeapReplyAllocator allocator = new HeapReplyAllocator();
        ByteBuf first = allocator.ioBuffer(256);
        ByteBuf second = allocator.ioBuffer(256);
        assertNotSame(first, second);
        first.release();
        second.release();
    }

    @Test
    void aBufferGrownByABigReplyIsNotKept() {
        HeapReplyAllocator allocator = new HeapReplyAllocator();
        ByteBuf big = allocator.ioBuffer(256);
        big.writeBytes(new byte[200_000]);
        big.release();
        ByteBuf next = allocator.ioBuffer(256);
        assertNotSame(big, next);
        assertEquals(256, next.capacity());
        next.release();
    }
}
