package dev.redsim.conformance.resp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A raw RESP client that keeps every reply as it came (type and bytes), so tests can compare two servers
 * byte for byte. It sends commands as multibulk requests, or any raw bytes for protocol tests.
 */
public final class RespClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public RespClient(String host, int port) {
        try {
            socket = new Socket();
            socket.connect(new InetSocketAddress(host, port), 5000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            in = new BufferedInputStream(socket.getInputStream());
            out = new BufferedOutputStream(socket.getOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot connect to " + host + ":" + port, e);
        }
    }

    /** Sends one command and reads its reply. */
    public RespValue call(String... args) {
        byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            bytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return call(bytes);
    }

    public RespValue call(byte[]... args) {
        send(args);
        return read();
    }

    /** Writes a command without reading (for pipelines and blocking commands). */
    public void send(byte[]... args) {
        try {
            out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (byte[] arg : args) {
                out.write(('$' + Integer.toString(arg.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(arg);
                out.write('\r');
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes bytes as they are (inline commands, malformed input). */
    public void sendRaw(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void setTimeoutMillis(int millis) {
        try {
            socket.setSoTimeout(millis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads the next reply (or push frame). */
    public RespValue read() {
        try {
            return readValue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * True when the server closed the connection (end of stream, or reset); false when a byte came instead, or
     * nothing came within the read timeout (a connection that stays open is not closed).
     */
    public boolean closedByServer() {
        try {
            return in.read() < 0;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** True when no byte arrives within the read timeout, whether the server closed the connection or not. */
    public boolean receivesNothing() {
        try {
            return in.read() < 0;
        } catch (IOException e) { // a read timeout, or a reset
            return true;
        }
    }

    private RespValue readValue() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed by server");
        }
        byte[] lineBytes = readLine();
        String line = new String(lineBytes, StandardCharsets.US_ASCII);
        switch (type) {
            case '+', '-', ':', ',', '#', '(' -> {
                // the line's own bytes: an error may quote binary input, and recordings keep bytes exactly
                return RespValue.scalar((char) type, lineBytes);
            }
            case '_' -> {
                return RespValue.nullOf('_');
            }
            case '$', '=' -> {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return RespValue.nullOf((char) type);
                }
                byte[] data = in.readNBytes(len);
                if (data.length < len) {
                    throw new EOFException("short bulk");
                }
                readLine();
                return RespValue.scalar((char) type, data);
            }
            case '*', '~', '>', '%' -> {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return RespValue.nullOf((char) type);
                }
                int count = type == '%' ? n * 2 : n;
                List<RespValue> children = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    children.add(readValue());
                }
                return RespValue.aggregate((char) type, children);
            }
            default -> throw new IOException("unexpected reply type '" + (char) type + "' " + line);
        }
    }

    private byte[] readLine() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                int next = in.read();
                if (next == '\n') {
                    break;
                }
                buf.write(c);
                c = next;
            }
            buf.write(c);
        }
        if (c == -1) {
            throw new EOFException("connection closed by server");
        }
        return buf.toByteArray();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
