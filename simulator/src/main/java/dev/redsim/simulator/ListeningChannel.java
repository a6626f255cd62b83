package dev.redsim.simulator;

import io.netty.channel.Channel;
import io.netty.channel.ChannelId;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * A listening socket of a simulator on NIO, bound by {@link Listeners} before Netty sees it. Netty's own channel
 * classes would give it and every connection it accepts a {@code DefaultChannelId}, whose first use in a JVM probes
 * the process id and the network interfaces (decision 0046); this one and its connections take a {@link LocalChannelId}.
 * It also tells which selector it was registered with, so that a port given up can be closed at once without a new
 * selector (see {@link Listeners}).
 */
final class ListeningChannel extends NioServerSocketChannel {
    /** Connections accepted so far; read and written on the loop's thread only (accepts run there). */
    private long accepted;

    ListeningChannel(ServerSocketChannel bound) {
        super(bound);
    }

    @Override
    protected ChannelId newId() {
        return new LocalChannelId(System.identityHashCode(this), 0);
    }

    /** One pending connection accepted, as Netty's listening channel does, as a {@link Connection}. */
    @Override
    protected int doReadMessages(List<Object> accepted) throws Exception {
        SocketChannel socket = javaChannel().accept();
        if (socket == null) {
            return 0; // nothing pending any more
        }
        try {
            accepted.add(new Connection(this, socket));
            return 1;
        } catch (RuntimeException e) {
            // a connection that cannot be set up (its socket refuses non-blocking mode) is closed, not leaked, and the
            // listening channel goes on, as Netty's does; the failure goes down the pipeline, where Netty reports it
            socket.close();
            pipeline().fireExceptionCaught(e);
            return 0;
        }
    }

    /** The selector this channel is registered with (the loop's JDK selector), or null before its registration. */
    Selector selector() {
        SelectionKey key = selectionKey();
        return key == null ? null : key.selector();
    }

    private long nextConnection() {
        return ++accepted;
    }

    /** An accepted connection: Netty's NIO socket channel with a {@link LocalChannelId}. */
    static final class Connection extends NioSocketChannel {
        Connection(ListeningChannel listener, SocketChannel socket) {
            super(listener, socket);
        }

        @Override
        protected ChannelId newId() {
            // runs in Netty's constructor, once parent() is set and before this class's fields are
            ListeningChannel listener = (ListeningChannel) parent();
            return new LocalChannelId(System.identityHashCode(listener), listener.nextConnection());
        }
    }
}
