package dev.redsim.simulator.server;

import dev.redsim.simulator.protocol.Input;
import io.netty.buffer.ByteBuf;

/** A Netty connection's unread bytes (its cumulation buffer) as the decoder reads them. */
final class ByteBufInput implements Input {
    private ByteBuf bytes;

    ByteBufInput of(ByteBuf buffer) {
        this.bytes = buffer;
        return this;
    }

    @Override
    public int readableBytes() {
        return bytes.readableBytes();
    }

    @Override
    public void peek(byte[] target, int offset, int length) {
        bytes.getBytes(bytes.readerIndex(), target, offset, length);
    }

    @Override
    public void read(byte[] target, int offset, int length) {
        bytes.readBytes(target, offset, length);
    }

    @Override
    public void skip(int length) {
        bytes.skipBytes(length);
    }
}
