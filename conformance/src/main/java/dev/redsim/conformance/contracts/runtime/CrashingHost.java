package dev.redsim.conformance.contracts.runtime;

import dev.redsim.conformance.contracts.conveyor.RespCommandCounter;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A whole host that dies after its k-th command: a TCP proxy in front of the target for every connection a
 * runtime opens (its pool, its subscriber, its upkeep), counting commands over all of them. The k-th command
 * reaches Redis, then every connection is cut (half-closed towards Redis, so Redis runs exactly the first k
 * commands and discards an open MULTI) and new connections are refused, as when the host's process dies. Or, as a
 * {@link #blip}, only the open connections are cut and new ones are served again (the network failed for a
 * moment; the process lives on and must recover by itself). Sees only RESP bytes, so it fits any implementation.
 */
public final class CrashingHost implements AutoCloseable {
    private final ServerSocket listener;
    private final String host;
    private final int port;
    private final int budget;
    private final boolean dies;
    private final Object lock = new Object();
    private final List<Socket[]> pairs = new ArrayList<>(); // guarded by lock: {client, upstream}
    private int commands; // guarded by lock
    private volatile boolean tripped; // written holding lock
    private int open; // guarded by lock: upstream connections Redis has not closed yet

    /** A host whose process dies after its {@code budget}-th command. */
    public CrashingHost(String host, int port, int budget) {
        this(host, port, budget, true);
    }

    /** A host whose connections are all cut after its {@code budget}-th command; it reconnects afterwards. */
    public static CrashingHost blip(String host, int port, int budget) {
        return new CrashingHost(host, port, budget, false);
    }

    private CrashingHost(String host, int port, int budget, boolean dies) {
        this.host = host;
        this.port = port;
        this.budget = budget;
        this.dies = dies;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "crashing-host");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String host() {
        return listener.getInetAddress().getHostAddress();
    }

    public int port() {
        return listener.getLocalPort();
    }

    public boolean tripped() {
        return tripped;
    }

    /** Waits until Redis has closed every connection of the dead host, i.e. has run all it was sent. */
    public void awaitServerDone() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        synchronized (lock) {
            while (open > 0) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("the server did not close the dead host's connections");
                }
                lock.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
        }
    }

    private void accept() {
        while (true) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException closed) {
                return;
            }
            try {
                Socket upstream = new Socket(host, port);
                synchronized (lock) {
                    if (tripped && dies) {
                        client.close();
                        upstream.close();
                        continue;
                    }
                    pairs.add(new Socket[] {client, upstream});
                    open++;
                }
                boolean counted = !tripped; // after a blip, connections are served in full
                Thread forward = new Thread(() -> forward(client, upstream, counted), "crashing-host-forward");
                forward.setDaemon(true);
                forward.start();
                Thread back = new Thread(() -> copyBack(upstream, client, counted), "crashing-host-back");
                back.setDaemon(true);
                back.start();
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    /** Forwards whole commands while the budget lasts; the byte that ends the k-th command ends the host. */
    private void forward(Socket client, Socket upstream, boolean counted) {
        RespCommandCounter counter = new RespCommandCounter();
        byte[] buffer = new byte[8192];
        try {
            InputStream from = client.getInputStream();
            OutputStream to = upstream.getOutputStream();
            for (int n = from.read(buffer); n > 0; n = from.read(buffer)) {
                synchronized (lock) {
                    if (tripped && counted) {
                        return;
                    }
                    for (int i = 0; i < n && counted; i++) {
                        if (counter.feed(buffer[i]) && ++commands == budget) {
                            to.write(buffer, 0, i + 1);
                            to.flush();
                            crash();
                            return;
                        }
                    }
                    to.write(buffer, 0, n);
                    to.flush();
                }
            }
            upstream.shutdownOutput();
        } catch (IOException e) {
            // cut: the copy back sees Redis close
        }
    }

    /** Called holding the lock. */
    private void crash() {
        tripped = true;
        if (dies) {
            closeQuietly(listener);
        }
        for (Socket[] pair : pairs) {
            closeQuietly(pair[0]);
            try {
                pair[1].shutdownOutput();
            } catch (IOException ignored) {
                // already closed by Redis
            }
        }
    }

    /** Replies go back until the host dies; then they are read and dropped until Redis closes. */
    private void copyBack(Socket upstream, Socket client, boolean counted) {
        byte[] buffer = new byte[8192];
        try (InputStream in = upstream.getInputStream()) {
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                if (!(tripped && counted)) {
                    try {
                        client.getOutputStream().write(buffer, 0, n);
                    } catch (IOException clientGone) {
                        // cut off: keep draining until Redis closes
                    }
                }
            }
        } catch (IOException e) {
            // closed
        } finally {
            closeQuietly(client);
            closeQuietly(upstream);
            synchronized (lock) {
                open--;
                lock.notifyAll();
            }
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closeQuietly(listener);
            for (Socket[] pair : pairs) {
                closeQuietly(pair[0]);
                closeQuietly(pair[1]);
            }
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already closed
        }
    }
}
