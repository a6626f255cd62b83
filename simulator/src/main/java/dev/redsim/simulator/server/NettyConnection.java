package dev.redsim.simulator.server;

import dev.redsim.simulator.protocol.Outgoing;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;

import java.net.SocketAddress;
import java.util.concurrent.Executor;

/** A client's socket on Netty's transport (the command line's, epoll where Linux has it). */
public final class NettyConnection implements Connection {
    private final Channel channel;

    public NettyConnection(Channel channel) {
        this.channel = channel;
    }

    @Override
    public void write(Outgoing bytes) {
        if (!bytes.isEmpty()) {
            channel.writeAndFlush(socketMemory(bytes), channel.voidPromise());
        }
    }

    @Override
    public void writeThenClose(Outgoing bytes) {
        if (bytes.isEmpty()) {
            channel.close();
        } else {
            channel.writeAndFlush(socketMemory(bytes)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * The slices copied into one buffer of the channel's allocator (pooled socket memory): one copy per batch, as Redis
     * copies from its client's reply buffer into the socket, and the caller keeps its arrays.
     */
    private ByteBuf socketMemory(Outgoing bytes) {
        ByteBuf buffer = channel.alloc().ioBuffer(Math.toIntExact(bytes.bytes()));
        for (int i = 0; i < bytes.count(); i++) {
            buffer.writeBytes(bytes.array(i), bytes.offset(i), bytes.length(i));
        }
        return buffer;
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public long unwrittenBytes() {
        ChannelOutboundBuffer outbound = channel.unsafe().outboundBuffer();
        return outbound == null ? 0 : outbound.totalPendingWriteBytes();
    }

    @Override
    public SocketAddress remoteAddress() {
        return channel.remoteAddress();
    }

    @Override
    public SocketAddress localAddress() {
        return channel.localAddress();
    }

    @Override
    public Executor loop() {
        return channel.eventLoop();
    }
}
