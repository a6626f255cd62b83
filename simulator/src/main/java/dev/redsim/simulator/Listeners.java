package dev.redsim.simulator;

import dev.redsim.simulator.error.RedisError;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The listening sockets (Redis's ipfd): one per address of the bind parameter, on the port parameter, rebound when
 * CONFIG SET changes either, as Redis 7.0 rebinds. A new port is bound before the old sockets close (a port that
 * cannot be had leaves everything as it was); a new bind closes the old sockets first and takes them back when
 * the new addresses cannot all be had. Port 0 (set at run time) and an empty bind listen nowhere; the connected
 * clients stay.
 *
 * <p>With NIO a socket is bound here, on the calling thread, and then registered with the accept loop, which may be
 * the engine's own loop (an in-process simulator's one loop: decision 0042): CONFIG SET port, which runs on that
 * loop, must not wait for a task of its own loop. With epoll the bootstrap binds it on the accept loop, a thread of
 * its own (the command line's), which the engine thread may wait for.
 */
final class Listeners {
    /** Redis's tcp-backlog default. */
    static final int BACKLOG = 511;
    private static final long WAIT_SECONDS = 5;

    /** The loops, options and child handler, without the listening channel's class (set per socket). */
    private final ServerBootstrap bootstrap;
    private final Transport transport;
    /** The listening channels' registrations with the accept loop (a start does not wait for them). */
    private List<ChannelFuture> channels = List.of();
    private List<String> addresses = List.of();
    private volatile int port;

    Listeners(ServerBootstrap bootstrap, Transport transport) {
        this.bootstrap = bootstrap;
        this.transport = transport;
    }

    /** Redis's bind value as addresses: blank-separated, "-" marking an address whose absence is no error. */
    static List<String> addresses(String bind) {
        return bind.isBlank() ? List.of() : Arrays.asList(bind.trim().split("\\s+"));
    }

    /** At start: listens on every address; port 0 takes a free port (the same for every address). */
    void start(List<String> bindAddresses, int requestedPort) throws Exception {
        // Bound and listening once open returns; the registration that starts the accepting is not awaited: it
        // runs on the loop before anything a client sends, and a later close or change waits for it (decision 0042)
        BindResult result = open(bindAddresses, requestedPort, false);
        if (result.failure != null) {
            throw result.failure;
        }
        install(result, bindAddresses);
    }

    /** The port listened on (the parameter's value; at start, the free port taken for port 0). */
    int port() {
        return port;
    }

    /** The first address listened on, as a client reaches it ("*" as 127.0.0.1, "::*" as ::1), or null. */
    String reachableHost() {
        for (String address : addresses) {
            String bare = address.startsWith("-") ? address.substring(1) : address;
            return switch (bare) {
                case "*" -> "127.0.0.1";
                case "::*" -> "::1";
                default -> bare;
            };
        }
        return null;
    }

    /** CONFIG SET port (changeListenPort): the new port first, then the old sockets go. */
    void changePort(int newPort) {
        if (newPort == port && !channels.isEmpty()) {
            return;
        }
        if (newPort == 0) {
            closeAll(channels);
            channels = List.of();
            port = 0;
            return;
        }
        BindResult result = open(addresses, newPort);
        if (result.failure != null) {
            throw new RedisError("Unable to listen on this port. Check server logs.");
        }
        closeAll(channels);
        install(result, addresses);
    }

    /** CONFIG SET bind (changeBindAddr): the old sockets go first, and come back if the new addresses fail. */
    void changeBind(List<String> newAddresses) {
        if (newAddresses.equals(addresses)) {
            return;
        }
        closeAll(channels);
        channels = List.of();
        if (port == 0) {
            addresses = newAddresses;
            return;
        }
        BindResult result = open(newAddresses, port);
        if (result.failure == null) {
            install(result, newAddresses);
            return;
        }
        BindResult restored = open(addresses, port);
        if (restored.failure != null) {
            throw new IllegalStateException("cannot listen again on " + addresses + ":" + port, restored.failure);
        }
        install(restored, addresses);
        throw new RedisError("Failed to bind to specified addresses.");
    }

    /** Listens again on the addresses and port it had before {@link #close()} (a restarted process). */
    void reopen() {
        BindResult result = open(addresses, port);
        if (result.failure != null) {
            throw new IllegalStateException("cannot listen again on " + addresses + ":" + port, result.failure);
        }
        install(result, addresses);
    }

    void close() {
        closeAll(channels);
        channels = List.of();
    }

    private record BindResult(List<ChannelFuture> channels, int port, Exception failure) {
    }

    private BindResult open(List<String> bindAddresses, int requestedPort) {
        return open(bindAddresses, requestedPort, true);
    }

    private BindResult open(List<String> bindAddresses, int requestedPort, boolean awaitRegistration) {
        List<ChannelFuture> opened = new ArrayList<>();
        int actualPort = requestedPort;
        for (String address : bindAddresses) {
            boolean optional = address.startsWith("-");
            String bare = optional ? address.substring(1) : address;
            try {
                ChannelFuture listening = listen(socketAddress(bare, actualPort));
                opened.add(listening);
                if (awaitRegistration) {
                    listening.sync();
                }
                actualPort = ((InetSocketAddress) listening.channel().localAddress()).getPort();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closeAll(opened);
                return new BindResult(List.of(), 0, e);
            } catch (Exception e) { // Netty rethrows the bind's IOException unchecked
                if (!optional) {
                    closeAll(opened);
                    return new BindResult(List.of(), 0, e);
                }
                // an optional address that cannot be had here (no IPv6, or the IPv4 wildcard's socket covers it)
            }
        }
        return new BindResult(opened, actualPort, null);
    }

    /** A channel bound and listening on the address, with its registration (done, or running on the loop). */
    private ChannelFuture listen(InetSocketAddress address) throws Exception {
        if (transport != Transport.NIO) {
            return bootstrap.clone().channel(transport.serverChannel()).bind(address).sync();
        }
        ServerSocketChannel socket = ServerSocketChannel.open();
        try {
            socket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            socket.bind(address, BACKLOG);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
        // bound and listening now: its registration (at once on the loop's own thread) only starts the accepting
        ChannelFactory<ServerChannel> boundSocket = () -> new ListeningChannel(socket);
        return bootstrap.clone().channelFactory(boundSocket).register();
    }

    private void install(BindResult result, List<String> bindAddresses) {
        channels = result.channels;
        addresses = bindAddresses;
        port = result.port;
    }

    private static InetSocketAddress socketAddress(String address, int port) {
        return switch (address) {
            case "*" -> new InetSocketAddress("0.0.0.0", port);
            case "::*" -> new InetSocketAddress("::", port);
            default -> new InetSocketAddress(address, port);
        };
    }

    private static void closeAll(List<ChannelFuture> channels) {
        java.util.Map<io.netty.channel.EventLoop, java.nio.channels.Selector> loops = new java.util.HashMap<>();
        for (ChannelFuture registration : channels) {
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
        loops.forEach(Listeners::releaseClosedSockets);
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
