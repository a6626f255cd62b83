package dev.redsim.simulator.commands.cluster;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * MIGRATE to a server outside this simulated cluster (a real redis-server, another simulator): a blocking socket with
 * the command's timeout for connecting, writing and each reply line, as Redis's migrate uses on its one thread. A
 * refused connection shows as a failed write, as Redis's non-blocking connect reports it.
 */
final class SocketMigrationLink implements MigrationLink {
    private final String host;
    private final int port;
    private final int timeoutMillis;
    private Socket socket;

    SocketMigrationLink(String host, int port, long timeoutMillis) {
        this.host = host;
        this.port = port;
        this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
    }

    @Override
    public Replies exchange(List<byte[][]> commands) {
        List<String> lines = new ArrayList<>();
        try {
            socket = new Socket();
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            socket.setTcpNoDelay(true);
        } catch (SocketTimeoutException e) {
            return Replies.failed(lines, new Failure(Failure.CONNECTING, true));
        } catch (ConnectException e) {
            return Replies.failed(lines, new Failure(Failure.WRITING, false));
        } catch (IOException | IllegalArgumentException e) {
            return Replies.failed(lines, new Failure(Failure.CONNECTING, false));
        }
        try {
            OutputStream out = socket.getOutputStream();
            out.write(encode(commands));
            out.flush();
        } catch (IOException e) {
            return Replies.failed(lines, new Failure(Failure.WRITING, e instanceof SocketTimeoutException));
        }
        try {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int i = 0; i < commands.size(); i++) {
                String line = readLine(in);
                if (line == null) {
                    return Replies.failed(lines, new Failure(Failure.READING, false));
                }
                lines.add(line);
            }
        } catch (IOException e) {
            return Replies.failed(lines, new Failure(Failure.READING, e instanceof SocketTimeoutException));
        }
        return Replies.of(lines);
    }

    private static byte[] encode(List<byte[][]> commands) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[][] command : commands) {
            out.writeBytes(("*" + command.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (byte[] arg : command) {
                out.writeBytes(("$" + arg.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.writeBytes(arg);
                out.writeBytes(new byte[] {'\r', '\n'});
            }
        }
        return out.toByteArray();
    }

    /** One reply line without its CRLF (syncReadLine), or null at the end of the stream. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            line.write(b);
        }
        return null;
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a socket we are done with: nothing left to do about it
            }
        }
    }
}
