package dev.redsim.simulator.protocol;

import java.util.Arrays;

/** Test input: bytes appended as reads would bring them, consumed by the parser from the front. */
final class ArrayInput implements Input {
    private byte[] bytes = new byte[0];
    private int start;

    void append(byte[] source, int offset, int length) {
        byte[] joined = Arrays.copyOfRange(bytes, start, bytes.length + length);
        System.arraycopy(source, offset, joined, bytes.length - start, length);
        bytes = joined;
        start = 0;
    }

    @Override
    public int readableBytes() {
        return bytes.length - start;
    }

    @Override
    public void peek(byte[] target, int offset, int length) {
        System.arraycopy(bytes, start, target, offset, length);
    }

    @Override
    public void read(byte[] target, int offset, int length) {
        peek(target, offset, length);
        start += length;
    }

    @Override
    public void skip(int length) {
        if (length > readableBytes()) {
            throw new IndexOutOfBoundsException(length + " > " + readableBytes());
        }
        start += length;
    }
}
