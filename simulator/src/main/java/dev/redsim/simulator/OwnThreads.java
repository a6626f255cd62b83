package dev.redsim.simulator;

import dev.redsim.simulator.net.SelectorLoop;
import dev.redsim.simulator.net.SocketListener;
import dev.redsim.simulator.server.ConnectionAcceptor;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A simulator's threads on the simulator's own transport (decision 0049): one {@link SelectorLoop}, which accepts,
 * reads and writes every socket and runs the engine, as Redis's one event loop does. In-process simulators and the
 * nodes of an in-process cluster (which share one) run on it; it loads no Netty class.
 */
final class OwnThreads implements ServerThreads {
    private static final long STOP_WAIT_SECONDS = 5;
    private final SelectorLoop loop;

    OwnThreads(SelectorLoop loop) {
        this.loop = loop;
    }

    /** A loop on a daemon thread of its own: a cluster's, which its nodes share. */
    static OwnThreads started(String threadName) {
        SelectorLoop loop = OwnStart.newLoop();
        loop.start(threadName);
        return new OwnThreads(loop);
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }

    @Override
    public boolean inEngineThread() {
        return loop.inLoop();
    }

    /** A timer asked for while the loop stops is dropped: it would never run (a simulator closed right after its start). */
    @Override
    public void scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        try {
            loop.scheduleAtFixedRate(task, initialDelay, period, unit);
        } catch (RejectedExecutionException stopping) {
            // the loop's stop has begun: no timer of it runs again
        }
    }

    @Override
    public ListeningSockets sockets(ConnectionAcceptor acceptor) {
        return new Sockets(loop, acceptor);
    }

    @Override
    public void stop() {
        loop.shutdown(); // closes every socket of the loop, the listening ones first
        if (loop.inLoop()) {
            return; // the loop ends when this task returns
        }
        boolean interrupted = false;
        try {
            loop.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** One server's listening sockets on the loop. */
    private static final class Sockets implements ListeningSockets {
        private final SelectorLoop loop;
        private final ConnectionAcceptor acceptor;

        Sockets(SelectorLoop loop, ConnectionAcceptor acceptor) {
            this.loop = loop;
            this.acceptor = acceptor;
        }

        @Override
        public Listening listen(InetSocketAddress address) throws Exception {
            return new Bound(SocketListener.open(loop, address, Listeners.BACKLOG, acceptor));
        }

        @Override
        public void closeAll(List<Listening> sockets) {
            for (Listening socket : sockets) {
                ((Bound) socket).listener().close();
            }
        }
    }

    private record Bound(SocketListener listener) implements ListeningSockets.Listening {
        @Override
        public int port() {
            return listener.port();
        }
    }
}
