package dev.redsim.simulator.net;

import dev.redsim.simulator.server.ConnectionAcceptor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A listening socket on a {@link SelectorLoop}: it accepts connections, makes each a {@link SocketConnection}, and
 * asks its {@link ConnectionAcceptor} for the driver that serves it.
 */
public final class SocketListener extends LoopChannel {
    /** Connections accepted per turn at most, so a burst of clients does not hold up the loop's other work. */
    static final int MAX_ACCEPTS_PER_TURN = 64;
    /** How long {@link #close()} from another thread waits for the loop to release the socket. */
    private static final long CLOSE_WAIT_SECONDS = 5;

    private final SelectorLoop loop;
    private final ServerSocketChannel channel;
    private final InetSocketAddress localAddress;
    private final ConnectionAcceptor acceptor;
    private boolean closed; // loop thread

    private SocketListener(SelectorLoop loop, ServerSocketChannel channel, InetSocketAddress localAddress,
                           ConnectionAcceptor acceptor) {
        this.loop = loop;
        this.channel = channel;
        this.localAddress = localAddress;
        this.acceptor = acceptor;
    }

    /**
     * Binds {@code address} on the calling thread, so the socket listens (and its port is known) when this returns, and
     * registers it with {@code loop}: at once on the loop thread, else as a loop task that this does not wait for (a
     * start must not wait for its loop, which may not run yet).
     *
     * @throws IOException the bind failed (the port is taken), or the loop is shut down
     */
    public static SocketListener open(SelectorLoop loop, InetSocketAddress address, int backlog,
                                      ConnectionAcceptor acceptor) throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        SocketListener listener;
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true); // a restarted node binds its port again
            channel.bind(address, backlog);
            listener = new SocketListener(loop, channel, (InetSocketAddress) channel.getLocalAddress(), acceptor);
            if (loop.inLoop()) {
                listener.register();
            } else {
                loop.execute(new Register(listener));
            }
        } catch (IOException | RuntimeException failed) {
            channel.close();
            if (failed instanceof RejectedExecutionException) {
                throw new IOException("the selector loop is shut down", failed);
            }
            throw failed;
        }
        return listener;
    }

    public int port() {
        return localAddress.getPort();
    }

    public InetSocketAddress localAddress() {
        return localAddress;
    }

    /**
     * Closes the socket; when this returns it is really closed: a client connecting is refused, and the port can be
     * bound again at once. Connections accepted before stay open. Any thread (from another than the loop's, it waits
     * up to 5 s for the loop to do it). Closing twice is harmless.
     */
    public void close() {
        if (loop.inLoop()) {
            closeAndRelease();
            return;
        }
        Release release = new Release(this);
        try {
            loop.execute(release);
        } catch (RejectedExecutionException shutDown) {
            closeChannel();
            awaitLoopEnd(); // the loop's last act, closing its selector, releases the socket
            return;
        }
        try {
            if (!release.done.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                closeChannel(); // the loop is stuck or not running: at least no more connections are accepted
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    void ready(int readyOps) {
        for (int i = 0; i < MAX_ACCEPTS_PER_TURN && !closed; i++) {
            SocketChannel accepted;
            try {
                accepted = channel.accept();
            } catch (IOException failed) {
                failed.printStackTrace(); // out of file descriptors, say: the next turn tries again
                return;
            }
            if (accepted == null) {
                return;
            }
            SocketConnection.accept(loop, accepted, acceptor);
        }
    }

    @Override
    void closeForShutdown() {
        closed = true;
        closeChannel();
    }

    private void register() throws IOException {
        if (!closed) {
            loop.register(channel, SelectionKey.OP_ACCEPT, this);
        }
    }

    /** On the loop thread: closes the channel, and releases its socket now rather than at the next select. */
    private void closeAndRelease() {
        closed = true;
        closeChannel();
        try {
            loop.dropCancelledKeys();
        } catch (IOException failed) {
            failed.printStackTrace();
        }
    }

    private void closeChannel() {
        try {
            channel.close(); // also cancels its key
        } catch (IOException failed) {
            failed.printStackTrace();
        }
    }

    private void awaitLoopEnd() {
        try {
            loop.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The loop task that registers a listener opened on another thread. */
    private static final class Register implements Runnable {
        private final SocketListener listener;

        Register(SocketListener listener) {
            this.listener = listener;
        }

        @Override
        public void run() {
            try {
                listener.register();
            } catch (ClosedChannelException closedMeanwhile) {
                // closed before the loop got to it: nothing to listen for
            } catch (IOException failed) {
                failed.printStackTrace();
                listener.closeChannel();
            }
        }
    }

    /** The loop task of a {@link #close()} from another thread, which waits for it. */
    private static final class Release implements Runnable {
        private final SocketListener listener;
        final CountDownLatch done = new CountDownLatch(1);

        Release(SocketListener listener) {
            this.listener = listener;
        }

        @Override
        public void run() {
            try {
                listener.closeAndRelease();
            } finally {
                done.countDown();
            }
        }
    }
}
