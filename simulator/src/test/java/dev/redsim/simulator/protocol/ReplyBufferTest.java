package dev.redsim.simulator.protocol;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connection's replies wait in its reply buffer: a batch comes out as slices holding the replies in order, a big
 * reply spread over arrays of at most a piece each (never one array of its size), and the small array of ordinary
 * batches is kept for the next batch while a grown one is let go.
 */
class ReplyBufferTest {
    private static String taken(Reply reply) {
        String text = new String(reply.pending().toArray(), StandardCharsets.ISO_8859_1);
        reply.discardPending();
        return text;
    }

    @Test
    void aBigValueBetweenSmallRepliesKeepsTheirOrderInPieces() {
        byte[] big = new byte[ReplyBuffer.PIECE * 2 + 12345];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) ('a' + i % 26);
        }
        Reply reply = new Reply();
        reply.array(3);
        reply.integer(-1234567890123L);
        reply.bulk(big);
        reply.integer(Long.MIN_VALUE);
        reply.integer(Long.MAX_VALUE);
        reply.bulk("v".getBytes(StandardCharsets.US_ASCII));
        reply.ok();
        String head = "*3\r\n:-1234567890123\r\n$" + big.length + "\r\n";
        String tail = "\r\n:-9223372036854775808\r\n:9223372036854775807\r\n$1\r\nv\r\n+OK\r\n";
        Outgoing out = reply.pending();
        assertThat(out.bytes()).isEqualTo(head.length() + big.length + tail.length());
        assertThat(reply.pendingBytes()).isEqualTo(out.bytes());
        assertThat(out.count()).isGreaterThanOrEqualTo(3);
        for (int i = 0; i < out.count(); i++) {
            assertThat(out.array(i).length).as("slice %d's array", i).isLessThanOrEqualTo(ReplyBuffer.PIECE);
        }
        byte[] all = out.toArray();
        assertThat(new String(all, 0, head.length(), StandardCharsets.ISO_8859_1)).isEqualTo(head);
        assertThat(Arrays.copyOfRange(all, head.length(), head.length() + big.length)).isEqualTo(big);
        assertThat(new String(all, head.length() + big.length, tail.length(), StandardCharsets.ISO_8859_1))
                .isEqualTo(tail);
        reply.discardPending();
        assertThat(reply.hasPending()).isFalse();
        assertThat(reply.pending().isEmpty()).isTrue();
    }

    @Test
    void theSmallArrayServesTheNextBatchAndAGrownOneIsLetGo() {
        Reply reply = new Reply();
        reply.integer(42);
        byte[] first = reply.pending().array(0);
        assertThat(taken(reply)).isEqualTo(":42\r\n");
        reply.bulk("abc".getBytes(StandardCharsets.US_ASCII));
        assertThat(reply.pending().array(0)).isSameAs(first);
        reply.discardPending();
        assertThat(reply.hasPending()).isFalse();
        assertThat(reply.pendingBytes()).isZero();
        reply.bulk(new byte[ReplyBuffer.KEPT * 2]);
        byte[] grown = reply.pending().array(0);
        assertThat(grown.length).isGreaterThan(ReplyBuffer.KEPT);
        reply.discardPending();
        reply.integer(7);
        assertThat(reply.pending().array(0)).isNotSameAs(grown);
        assertThat(taken(reply)).isEqualTo(":7\r\n");
    }

    @Test
    void textRepliesKeepTheirBytes() {
        Reply reply = new Reply();
        reply.simple("caf\u00e9");
        reply.error("ERR line\r\nbreak");
        reply.doubleValue(1.5);
        assertThat(new String(reply.pending().toArray(), StandardCharsets.UTF_8))
                .isEqualTo("+caf\u00e9\r\n-ERR line  break\r\n$3\r\n1.5\r\n");
    }
}
