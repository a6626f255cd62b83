package dev.redsim.simulator.util;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChunkedBytesTest {
    @Test
    void fillsChunkByChunkAndReadsBackAnyRange() {
        byte[] source = new byte[10_007];
        new Random(7).nextBytes(source);
        ChunkedBytes.Filling filling = ChunkedBytes.filling(source.length, 1000);
        int at = 0;
        while (!filling.complete()) {
            int take = Math.min(filling.room(), 333);
            System.arraycopy(source, at, filling.target(), filling.offset(), take);
            filling.advance(take);
            at += take;
        }
        ChunkedBytes bytes = filling.done();
        assertThat(bytes.length()).isEqualTo(source.length);
        assertThat(bytes.chunkCount()).isEqualTo(11);
        assertThat(bytes.chunk(10)).hasSize(7);
        assertThat(bytes.toArray()).isEqualTo(source);
        for (int[] range : new int[][] {{0, 0}, {0, 1}, {999, 2}, {1000, 1000}, {1500, 7000}, {10_000, 7}, {0, 10_007}}) {
            assertThat(bytes.range(range[0], range[1])).isEqualTo(Arrays.copyOfRange(source, range[0], range[0] + range[1]));
            ByteArrayOutputStream pieces = new ByteArrayOutputStream();
            bytes.forEachPiece(range[0], range[1], pieces::write);
            assertThat(pieces.toByteArray()).isEqualTo(Arrays.copyOfRange(source, range[0], range[0] + range[1]));
        }
        assertThatThrownBy(() -> bytes.range(10_000, 8)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aChunkIsMadeOnlyWhenItsFirstByteArrives() {
        ChunkedBytes.Filling filling = ChunkedBytes.filling(5000, 1000);
        byte[] first = filling.target();
        filling.advance(1000);
        byte[] second = filling.target();
        assertThat(second).isNotSameAs(first).hasSize(1000);
        assertThat(filling.filled()).isEqualTo(1000);
        assertThatThrownBy(() -> filling.advance(1001)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(filling::done).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void regionsAreSizedAsG1SizesThem() {
        // what -XX:+PrintFlagsFinal says G1HeapRegionSize is for these -Xmx on JDK 17 (maxMemory is the -Xmx)
        assertThat(ChunkedBytes.regionSize(1500L << 20)).isEqualTo(1L << 20);
        assertThat(ChunkedBytes.regionSize(3L << 30)).isEqualTo(2L << 20);
        assertThat(ChunkedBytes.regionSize(6_320_816_128L)).isEqualTo(4L << 20); // a quarter of 24 GiB of RAM
        assertThat(ChunkedBytes.regionSize(12L << 30)).isEqualTo(8L << 20);
        assertThat(ChunkedBytes.regionSize(48L << 30)).isEqualTo(32L << 20);
        assertThat(ChunkedBytes.regionSize(1L << 40)).isEqualTo(32L << 20);
    }

    @Test
    void stringsUnderOneRegionStayOneArray() {
        // G1 regions are at least 1 MB: shorter strings never pay for chunks (nor for reading the region size)
        assertThat(ChunkedBytes.chunkSizeFor(1000)).isZero();
        int chunk = ChunkedBytes.chunkSizeFor(Integer.MAX_VALUE);
        assertThat(chunk).isPositive();
        assertThat(ChunkedBytes.chunkSizeFor(chunk)).isEqualTo(chunk);
        assertThat(ChunkedBytes.chunkSizeFor(chunk - 1)).isZero();
    }
}
