package dev.redsim.simulator.commands;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A bare RESP2 connection for tests: sends a command, returns the reply's raw text (framing included). */
final class RawRespSocket implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawRespSocket(String host, int port) throws IOException {
        socket = new Socket(host, port);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    String call(String... args) throws IOException {
        StringBuilder frame = new StringBuilder("*" + args.length + "\r\n");
        for (String a : args) {
            frame.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        out.write(frame.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        readValue(reply);
        return reply.toString(StandardCharsets.UTF_8);
    }

    private void readValue(ByteArrayOutputStream reply) throws IOException {
        String line = readLine();
        reply.writeBytes((line + "\r\n").getBytes(StandardCharsets.UTF_8));
        char type = line.charAt(0);
        long n = type == '$' || type == '*' ? Long.parseLong(line.substring(1)) : -1;
        if (type == '$' && n >= 0) {
            reply.writeBytes(in.readNBytes((int) n + 2));
        } else if (type == '*') {
            for (long i = 0; i < n; i++) {
                readValue(reply);
            }
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            line.append((char) c);
        }
        in.read();
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
