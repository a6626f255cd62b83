package dev.redsim.simulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A minimal line-reading client for the simulator's own tests (replies of one line only). */
final class TinyClient implements AutoCloseable {
    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;

    TinyClient(RedisSimulator simulator) throws IOException {
        socket = new Socket(simulator.host(), simulator.port());
        socket.setSoTimeout(5000);
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        out = socket.getOutputStream();
    }

    /** Sends an inline command and returns the first reply line, with a bulk's payload line appended. */
    String call(String inline) throws IOException {
        send(inline);
        return readLine();
    }

    /** Sends an inline command without waiting for its reply. */
    void send(String inline) throws IOException {
        out.write((inline + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Reads one reply line (with a bulk's payload line instead of its length); null once the server closed. */
    String readLine() throws IOException {
        String line = in.readLine();
        if (line == null) {
            return null;
        }
        if (line.startsWith("$") && !line.equals("$-1")) {
            return in.readLine();
        }
        return line;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
