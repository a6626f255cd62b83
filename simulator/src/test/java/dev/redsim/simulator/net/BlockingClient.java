package dev.redsim.simulator.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A blocking client socket for the net package's tests, with a read timeout so a broken transport fails a test. */
final class BlockingClient implements AutoCloseable {
    final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    BlockingClient(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(20_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.US_ASCII));
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads exactly {@code length} bytes. */
    byte[] readExactly(int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new IOException("the server closed after " + bytes.length + " of " + length + " bytes");
        }
        return bytes;
    }

    /** Reads until the server closes. */
    byte[] readToEnd() throws IOException {
        return in.readAllBytes();
    }

    /** Reads one byte: -1 at the end of the stream. */
    int read() throws IOException {
        return in.read();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
