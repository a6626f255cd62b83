package dev.redsim.simulator.net;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InputBufferTest {
    private final InputBuffer buffer = new InputBuffer();

    @Test
    void peekLeavesTheBytesReadAndSkipConsumeThem() {
        put("hello world");
        byte[] five = new byte[5];
        buffer.peek(five, 0, 5);
        assertThat(text(five)).isEqualTo("hello");
        assertThat(buffer.readableBytes()).isEqualTo(11);
        buffer.read(five, 0, 5);
        assertThat(text(five)).isEqualTo("hello");
        buffer.skip(1);
        byte[] rest = new byte[5];
        buffer.read(rest, 0, 5);
        assertThat(text(rest)).isEqualTo("world");
        assertThat(buffer.readableBytes()).isZero();
    }

    @Test
    void refusesToReadMoreThanIsThere() {
        put("abc");
        assertThatThrownBy(() -> buffer.read(new byte[4], 0, 4)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> buffer.skip(4)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(buffer.readableBytes()).isEqualTo(3);
    }

    @Test
    void compactsWhenMovingTheUnreadBytesMakesRoom() {
        buffer.prepareForRead(InputBuffer.SMALL);
        byte[] array = buffer.array();
        byte[] full = new byte[InputBuffer.SMALL];
        full[full.length - 2] = 'o';
        full[full.length - 1] = 'k';
        System.arraycopy(full, 0, buffer.array(), buffer.writeIndex(), full.length);
        buffer.written(full.length);
        buffer.skip(full.length - 2); // two unread bytes at the end of the array
        buffer.prepareForRead(100);
        assertThat(buffer.array()).isSameAs(array); // moved, not grown
        assertThat(buffer.writeIndex()).isEqualTo(2);
        byte[] ok = new byte[2];
        buffer.read(ok, 0, 2);
        assertThat(text(ok)).isEqualTo("ok");
    }

    @Test
    void growsToFitAReadKeepingTheUnreadBytes() {
        put("keep");
        buffer.prepareForRead(1024 * 1024);
        assertThat(buffer.writableBytes()).isGreaterThanOrEqualTo(1024 * 1024);
        assertThat(buffer.readableBytes()).isEqualTo(4);
        byte[] kept = new byte[4];
        buffer.read(kept, 0, 4);
        assertThat(text(kept)).isEqualTo("keep");
    }

    @Test
    void shrinksBackToASmallArrayOnceEmpty() {
        buffer.prepareForRead(1024 * 1024);
        buffer.written(1024 * 1024);
        assertThat(buffer.capacity()).isGreaterThanOrEqualTo(1024 * 1024);
        buffer.prepareForRead(InputBuffer.SMALL); // not empty yet: keeps its array
        assertThat(buffer.capacity()).isGreaterThanOrEqualTo(1024 * 1024);
        buffer.skip(1024 * 1024);
        buffer.prepareForRead(InputBuffer.SMALL);
        assertThat(buffer.capacity()).isEqualTo(InputBuffer.SMALL);
        assertThat(buffer.writeIndex()).isZero();
    }

    @Test
    void anEmptyBufferKeepsAnArrayTheNextReadNeeds() {
        buffer.prepareForRead(1024 * 1024);
        buffer.written(10);
        buffer.skip(10);
        buffer.prepareForRead(1024 * 1024); // a big argument still arriving: no shrinking and growing again
        assertThat(buffer.capacity()).isGreaterThanOrEqualTo(1024 * 1024);
    }

    private void put(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        buffer.prepareForRead(bytes.length);
        System.arraycopy(bytes, 0, buffer.array(), buffer.writeIndex(), bytes.length);
        buffer.written(bytes.length);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
