package dev.redsim.simulator.server;

import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.protocol.ProtocolError;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;

/**
 * Feeds decoded commands of one connection to the engine and flushes the replies once per read batch, so a
 * pipeline of N commands costs one write. Runs on the engine thread: the server has a single event loop,
 * which is both Redis's I/O and its main thread.
 */
public final class ConnectionHandler extends ChannelInboundHandlerAdapter {
    private final Engine engine;
    private final ClientConnection client;

    public ConnectionHandler(Engine engine, ClientConnection client) {
        this.engine = engine;
        this.client = client;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        engine.busy().whilePaused(() -> engine.clientConnected(client));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (client.closeAfterReply() || client.closed()) {
            return; // Redis stops reading from a client it is about to close
        }
        if (client.blocked() || client.hasDeferredInput()) {
            client.deferInput(msg); // a blocked client's commands (or a busy script's caller's) wait, in order
            return;
        }
        if (engine.busy().active()) {
            engine.busy().whilePaused(() -> process(engine, client, msg)); // -BUSY, or an ALLOW_BUSY command
            return;
        }
        process(engine, client, msg);
    }

    /** Runs one decoded message of a client: a command, or a protocol error that closes the connection. */
    public static void process(Engine engine, ClientConnection client, Object msg) {
        if (msg instanceof byte[][] args) {
            engine.execute(client, args);
        } else if (msg instanceof ProtocolError error) {
            client.reply().enabled(true);
            client.reply().error("ERR " + error.message());
            client.closeAfterReply(true);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (engine.busy().active()) {
            engine.busy().whilePaused(this::afterReadBatch);
        } else {
            afterReadBatch();
        }
    }

    private void afterReadBatch() {
        client.flush();
        engine.processUnblockedClients(); // clients this batch woke run what they sent while blocked
        // this batch may have written to other connections too (pub/sub messages, served blocked clients)
        engine.flushPendingOutput();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        engine.busy().whilePaused(() -> {
            client.reply().discardPending();
            engine.clientDisconnected(client);
        });
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
