package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.conveyor.RespCommandCounter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of Redis for every connection of a client (the JQ master's pool) that runs a hook right
 * before it forwards each EXEC: the worst moment for anything else to write, as a steady stream of producers
 * eventually does. Counts the EXECs it forwarded.
 */
final class ExecHookProxy implements AutoCloseable {
    private static final byte[] EXEC = "*1\r\n$4\r\nEXEC\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket listener;
    private final String host;
    private final int port;
    private final Runnable beforeExec;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile int execs;

    ExecHookProxy(String host, int port, Runnable beforeExec) {
        this.host = host;
        this.port = port;
        this.beforeExec = beforeExec;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        daemon(this::accept, "exec-hook-proxy");
    }

    int port() {
        return listener.getLocalPort();
    }

    int execs() {
        return execs;
    }

    private static void daemon(Runnable body, String name) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    private void accept() {
        while (true) {
            try {
                Socket client = listener.accept();
                Socket upstream = new Socket(host, port);
                client.setTcpNoDelay(true); // as the clients do: no Nagle delay on each forwarded command
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                daemon(() -> forward(client, upstream), "exec-hook-forward");
                daemon(() -> copy(upstream, client), "exec-hook-back");
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** Forwards command by command, so the hook runs between the client's last command and its EXEC. */
    private void forward(Socket client, Socket upstream) {
        RespCommandCounter counter = new RespCommandCounter();
        ByteArrayOutputStream command = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream in = client.getInputStream(); OutputStream out = upstream.getOutputStream()) {
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                for (int i = 0; i < n; i++) {
                    command.write(buffer[i]);
                    if (counter.feed(buffer[i])) {
                        byte[] bytes = command.toByteArray();
                        command.reset();
                        if (java.util.Arrays.equals(bytes, EXEC)) {
                            beforeExec.run();
                            execs++;
                        }
                        out.write(bytes);
                    }
                }
                out.flush();
            }
        } catch (IOException e) {
            // closed
        }
    }

    private static void copy(Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // closed
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // closed
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closed
            }
        }
    }
}
