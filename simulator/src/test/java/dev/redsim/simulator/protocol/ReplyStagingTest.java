package dev.redsim.simulator.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connection's replies are staged in a heap buffer and copied into socket memory once per batch, while a big value
 * goes to socket memory at once: the bytes a batch hands to the socket are the same, in the same order, as when every
 * reply was written into one buffer.
 */
class ReplyStagingTest {
    private static String taken(Reply reply) {
        ByteBuf pending = reply.takePending();
        try {
            return pending.toString(StandardCharsets.ISO_8859_1);
        } finally {
            pending.release();
        }
    }

    /** The same replies, written by a reply for a socket and by one for an in-process client. */
    private static void writeBatch(Reply reply, byte[] big) {
        reply.array(3);
        reply.integer(-1234567890123L);
        reply.bulk(big);
        reply.integer(Long.MIN_VALUE);
        reply.integer(Long.MAX_VALUE);
        reply.bulk("v".getBytes(StandardCharsets.US_ASCII));
        reply.ok();
    }

    @Test
    void aBigValueBetweenSmallRepliesKeepsTheirOrder() {
        byte[] big = new byte[Reply.BIG_REPLY + 5];
        Arrays.fill(big, (byte) 'x');
        Reply toSocket = new Reply(PooledByteBufAllocator.DEFAULT);
        Reply inProcess = new Reply(new UnpooledByteBufAllocator(false));
        writeBatch(toSocket, big);
        writeBatch(inProcess, big);
        int expectedBytes = inProcess.pendingBytes();
        String expected = taken(inProcess);
        assertThat(expected).startsWith("*3\r\n:-1234567890123\r\n$" + big.length + "\r\nxxx")
                .endsWith("\r\n:-9223372036854775808\r\n:9223372036854775807\r\n$1\r\nv\r\n+OK\r\n");
        assertThat(toSocket.pendingBytes()).isEqualTo(expectedBytes);
        ByteBuf pending = toSocket.takePending();
        try {
            assertThat(pending.isDirect()).isTrue(); // what goes to the socket is in socket memory
            assertThat(pending.toString(StandardCharsets.ISO_8859_1)).isEqualTo(expected);
        } finally {
            pending.release();
        }
        assertThat(toSocket.hasPending()).isFalse();
        assertThat(toSocket.takePending()).isNull();
    }

    @Test
    void theStagingBufferServesTheNextBatchAndDiscardingEmptiesIt() {
        Reply reply = new Reply(PooledByteBufAllocator.DEFAULT);
        reply.integer(42);
        assertThat(taken(reply)).isEqualTo(":42\r\n");
        reply.bulk("abc".getBytes(StandardCharsets.US_ASCII));
        reply.discardPending();
        assertThat(reply.hasPending()).isFalse();
        assertThat(reply.pendingBytes()).isZero();
        reply.integer(7);
        assertThat(taken(reply)).isEqualTo(":7\r\n");
    }
}
