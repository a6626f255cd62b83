package dev.redsim.simulator.server;

import dev.redsim.simulator.protocol.ReadSizes;
import dev.redsim.simulator.protocol.RespParser;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.RecvByteBufAllocator;

import java.io.IOException;

/**
 * The Netty side of one connection (the command line's transport): keeps what was read and not yet decoded, and hands
 * each read to the connection's {@link ConnectionDriver}, which decodes it and runs it on the engine; the replies are
 * flushed once per read, so a pipeline of N commands costs one write. Runs on the engine thread: the server has a
 * single event loop, which is both Redis's I/O and its main thread.
 */
public final class ConnectionHandler extends ChannelInboundHandlerAdapter {
    private final ConnectionDriver driver;
    private final ByteBufInput input = new ByteBufInput();
    /** The bytes read and not yet decoded (Redis's query buffer), or null when there are none. */
    private ByteBuf unread;

    public ConnectionHandler(ConnectionDriver driver) {
        this.driver = driver;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        driver.opened();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf read = (ByteBuf) msg;
        int newBytes = read.readableBytes();
        append(ctx, read);
        try {
            driver.read(input.of(unread), newBytes);
        } finally {
            if (unread != null && !unread.isReadable()) {
                unread.release();
                unread = null;
            } else if (unread != null) {
                unread.discardSomeReadBytes();
            }
        }
        readSize(ctx, driver.nextReadSize() > RespParser.READ_BYTES ? ReadSizes.BIG_ARG_READS : ReadSizes.READS);
    }

    /** The read after what is left of the earlier ones, in one buffer (copied only when there was something left). */
    private void append(ChannelHandlerContext ctx, ByteBuf read) {
        if (unread == null) {
            unread = read;
            return;
        }
        try {
            if (unread.refCnt() > 1 || unread.isReadOnly() || unread.maxWritableBytes() < read.readableBytes()) {
                ByteBuf merged = ctx.alloc().buffer(unread.readableBytes() + read.readableBytes());
                merged.writeBytes(unread);
                unread.release();
                unread = merged;
            }
            unread.writeBytes(read);
        } finally {
            read.release();
        }
    }

    private static void readSize(ChannelHandlerContext ctx, RecvByteBufAllocator wanted) {
        if (ctx.channel().config().getRecvByteBufAllocator() != wanted) {
            ctx.channel().config().setRecvByteBufAllocator(wanted);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (unread != null) {
            unread.release();
            unread = null;
        }
        driver.closed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset connection is ordinary for a server; anything else is a bug we must not hide from the log.
        if (!(cause instanceof IOException)) {
            cause.printStackTrace();
        }
        ctx.close();
    }
}
