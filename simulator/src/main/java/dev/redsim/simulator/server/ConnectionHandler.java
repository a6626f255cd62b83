package dev.redsim.simulator.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;

/**
 * The Netty side of one connection: hands its events (decoded commands, the end of a read batch) to the engine,
 * which flushes the replies once per read batch, so a pipeline of N commands costs one write. Runs on the engine
 * thread: the server has a single event loop, which is both Redis's I/O and its main thread.
 */
public final class ConnectionHandler extends ChannelInboundHandlerAdapter {
    private final ConnectionEvents events;
    private final ClientConnection client;

    public ConnectionHandler(ConnectionEvents events, ClientConnection client) {
        this.events = events;
        this.client = client;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        events.connected(client);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        events.received(client, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        events.readComplete(client);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        events.disconnected(client);
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
