package dev.redsim.simulator;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.NioEventLoop;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Listening sockets on Netty's transport (the command line's). With NIO a socket is bound here, on the calling thread,
 * and then registered with the accept loop, which may be the engine's own loop: CONFIG SET port, which runs on that
 * loop, must not wait for a task of its own loop. With epoll the bootstrap binds it on the accept loop, a thread of
 * its own, which the engine thread may wait for.
 */
final class NettyListeningSockets implements ListeningSockets {
    private static final long WAIT_SECONDS = 5;
    /** The loops, options and child handler, without the listening channel's class (set per socket). */
    private final ServerBootstrap bootstrap;
    private final Transport transport;

    NettyListeningSockets(ServerBootstrap bootstrap, Transport transport) {
        this.bootstrap = bootstrap;
        this.transport = transport;
    }

    /** A bound channel and its registration with the accept loop (done, or running on the loop: not awaited). */
    private record NettyListening(ChannelFuture registration) implements Listening {
        @Override
        public int port() {
            return ((InetSocketAddress) registration.channel().localAddress()).getPort();
        }
    }

    @Override
    public Listening listen(InetSocketAddress address) throws Exception {
        return new NettyListening(channel(address));
    }

    /** A channel bound and listening on the address, with its registration (done, or running on the loop). */
    private ChannelFuture channel(InetSocketAddress address) throws Exception {
        if (transport != Transport.NIO) {
            return bootstrap.clone().channel(transport.serverChannel()).bind(address).sync();
        }
        ServerSocketChannel socket = ServerSocketChannel.open();
        try {
            socket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            socket.bind(address, Listeners.BACKLOG);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
        // bound and listening now: its registration (at once on the loop's own thread) only starts the accepting
        ChannelFactory<ServerChannel> boundSocket = () -> new ListeningChannel(socket);
        return bootstrap.clone().channelFactory(boundSocket).register();
    }

    @Override
    public void closeAll(List<Listening> sockets) {
        java.util.Map<io.netty.channel.EventLoop, java.nio.channels.Selector> loops = new java.util.HashMap<>();
        for (Listening socket : sockets) {
            ChannelFuture registration = ((NettyListening) socket).registration();
            // a channel is closed through its loop, which it has once registered (a failed registration closed it)
            registration.awaitUninterruptibly(WAIT_SECONDS, TimeUnit.SECONDS);
            Channel channel = registration.channel();
            if (!channel.isRegistered()) {
                channel.unsafe().closeForcibly();
                continue;
            }
            java.nio.channels.Selector selector = channel instanceof ListeningChannel listening ? listening.selector() : null;
            channel.close().awaitUninterruptibly(WAIT_SECONDS, TimeUnit.SECONDS);
            if (selector != null) {
                loops.put(channel.eventLoop(), selector);
            }
        }
        loops.forEach(NettyListeningSockets::releaseClosedSockets);
    }

    /**
     * The JDK closes a listening NIO channel that is registered with a selector only when that selector next drops its
     * key: until the loop's next select, the socket still completes connections. Redis closes the port at once (a
     * client of the old port is refused, a restarted node binds it again), so the loop's selector drops its cancelled
     * keys now, which closes every closed channel's socket, and this waits for that. On the loop's own thread (CONFIG
     * SET port in an in-process simulator, whose one loop accepts: decision 0042) it happens here and now; from another
     * thread it is a task of that loop, awaited. Epoll closes at once.
     *
     * <p>A selection that does not block does it (the JDK deregisters cancelled keys at every selection operation),
     * not a new selector: Netty's selector rebuild logs "Migrated N channel(s) to the new Selector." at INFO through
     * the user's logging on every port given up (decision 0046). The selection hands its ready keys to an action
     * that ignores them, so the loop's selected-key set (which Netty may be iterating: CONFIG SET runs inside a read)
     * is left as it was; those keys stay ready and the loop's own next select finds them.
     */
    private static void releaseClosedSockets(io.netty.channel.EventLoop loop, java.nio.channels.Selector selector) {
        if (loop instanceof NioEventLoop nio && !nio.isShuttingDown()) {
            if (nio.inEventLoop()) {
                dropCancelledKeys(nio, selector);
            } else {
                nio.submit(() -> dropCancelledKeys(nio, selector)).awaitUninterruptibly(WAIT_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * On the loop's thread: the selector the channels were registered with (the loop's JDK selector, unless Netty
     * replaced it since) deregisters its cancelled keys, so their closed sockets close now.
     */
    private static void dropCancelledKeys(NioEventLoop loop, java.nio.channels.Selector selector) {
        try {
            if (selector.isOpen()) { // a selector Netty replaced was closed, and with it its channels' sockets
                selector.selectNow(readyKeyLeftForTheLoop -> { });
            }
        } catch (IOException | java.nio.channels.ClosedSelectorException broken) {
            loop.rebuildSelector(); // a selector that cannot select any more is replaced, as Netty's loop would
        }
    }
}
