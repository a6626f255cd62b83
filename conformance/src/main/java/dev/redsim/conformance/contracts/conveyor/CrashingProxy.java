package dev.redsim.conformance.contracts.conveyor;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A client that dies after its k-th command, without the client's cooperation: a TCP proxy in front of the target
 * that forwards commands until the k-th has been sent, then cuts the client off and half-closes towards Redis, so
 * Redis executes exactly the first k commands (a MULTI left open is discarded, as on a real crash). Implementation
 * independent: it sees only RESP bytes.
 */
public final class CrashingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final String host;
    private final int port;
    private final int budget;
    private final CountDownLatch upstreamClosed = new CountDownLatch(1);
    private volatile boolean tripped;
    private volatile Socket client;
    private volatile Socket upstream;

    public CrashingProxy(String host, int port, int budget) {
        this.host = host;
        this.port = port;
        this.budget = budget;
        try {
            listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::serveOne, "crashing-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** True when the client sent its k-th command and was cut off. */
    public boolean tripped() {
        return tripped;
    }

    /** Waits until Redis has closed the connection, i.e. has processed everything the client got to send. */
    public void awaitServerDone() throws InterruptedException {
        if (!upstreamClosed.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the server did not close the crashed connection");
        }
    }

    private void serveOne() {
        try {
            client = listener.accept();
            upstream = new Socket(host, port);
            Thread back = new Thread(() -> copyBack(upstream, client), "crashing-proxy-back");
            back.setDaemon(true);
            back.start();
            forward(client.getInputStream(), upstream.getOutputStream());
        } catch (IOException e) {
            upstreamClosed.countDown();
        }
    }

    private void forward(InputStream from, OutputStream to) throws IOException {
        RespCommandCounter counter = new RespCommandCounter();
        int commands = 0;
        byte[] buffer = new byte[8192];
        for (int n = from.read(buffer); n > 0; n = from.read(buffer)) {
            for (int i = 0; i < n; i++) {
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
        upstream.shutdownOutput();
    }

    private void crash() throws IOException {
        tripped = true;
        client.close();
        upstream.shutdownOutput();
    }

    /** Replies go back to the client until it is cut off; then they are read and dropped until Redis closes. */
    private void copyBack(Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream()) {
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                if (!tripped) {
                    try {
                        to.getOutputStream().write(buffer, 0, n);
                    } catch (IOException clientGone) {
                        // the client is cut off: keep draining until Redis closes
                    }
                }
            }
        } catch (IOException e) {
            // closed: fall through
        } finally {
            upstreamClosed.countDown();
        }
    }

    @Override
    public void close() {
        closeQuietly(client);
        closeQuietly(upstream);
        try {
            listener.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
