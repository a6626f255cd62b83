package dev.redsim.conformance;

import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SimulatorTarget;
import dev.redsim.conformance.target.Targets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INFO's total_net_input_bytes and total_net_output_bytes count every byte read from and written to clients, on
 * both servers alike: a command's own bytes are counted by the time it runs, its reply once it has been written.
 * Each case runs on a server of its own (no other client's traffic), over a socket that counts bytes exactly.
 */
class NetworkCountersTest {
    @ParameterizedTest
    @ValueSource(strings = {"redis-server", "simulator"})
    void bytesInAndOutAreCountedExactly(String which) throws IOException {
        try (RedisTarget target = start(which); Socket socket = new Socket(target.host(), target.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();

            byte[] info = command("INFO", "stats");
            out.write(info);
            byte[] firstInfo = readReply(in);
            long inBefore = field(firstInfo, "total_net_input_bytes");
            long outBefore = field(firstInfo, "total_net_output_bytes");

            // A pipeline with a value larger than one 16 KB read, and an error reply, in one write.
            byte[] big = new byte[100_000];
            Arrays.fill(big, (byte) 'x');
            ByteArrayOutputStream batch = new ByteArrayOutputStream();
            batch.write(command("SET", "big", new String(big, StandardCharsets.US_ASCII)));
            batch.write(command("GET", "big"));
            batch.write(command("INCR", "big"));
            batch.write("PING\r\n".getBytes(StandardCharsets.US_ASCII)); // inline commands count as well
            out.write(batch.toByteArray());
            long replies = 0;
            for (int i = 0; i < 4; i++) {
                replies += readReply(in).length;
            }

            out.write(info);
            byte[] secondInfo = readReply(in);
            String name = target.name();
            assertThat(field(secondInfo, "total_net_input_bytes") - inBefore).as(name + ": input")
                    .isEqualTo(batch.size() + info.length);
            assertThat(field(secondInfo, "total_net_output_bytes") - outBefore).as(name + ": output")
                    .isEqualTo(firstInfo.length + replies);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis-server", "simulator"})
    void configResetstatStartsThemAtZero(String which) throws IOException {
        try (RedisTarget target = start(which); Socket socket = new Socket(target.host(), target.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(command("SET", "k", "v"));
            readReply(in);
            out.write(command("CONFIG", "RESETSTAT"));
            assertThat(new String(readReply(in), StandardCharsets.US_ASCII)).isEqualTo("+OK\r\n");
            byte[] info = command("INFO", "stats");
            out.write(info);
            byte[] reply = readReply(in);
            // counted since the reset: the INFO command read, and RESETSTAT's reply, written after it ran
            assertThat(field(reply, "total_net_input_bytes")).as(target.name()).isEqualTo(info.length);
            assertThat(field(reply, "total_net_output_bytes")).as(target.name()).isEqualTo(5);
        }
    }

    private static RedisTarget start(String which) {
        return which.equals("simulator") ? new SimulatorTarget() : Targets.reference();
    }

    private static byte[] command(String... args) {
        StringBuilder resp = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            resp.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
        }
        return resp.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** One reply (a status, error, integer or bulk string), exactly as many bytes as the server wrote for it. */
    private static byte[] readReply(InputStream in) throws IOException {
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        String header = readLine(in, reply);
        if (header.startsWith("$") && !header.equals("$-1")) {
            int length = Integer.parseInt(header.substring(1));
            reply.write(in.readNBytes(length + 2));
        }
        return reply.toByteArray();
    }

    private static String readLine(InputStream in, ByteArrayOutputStream copy) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("connection closed");
            }
            copy.write(b);
            if (b != '\r') {
                line.append((char) b);
            }
        }
        copy.write('\n');
        return line.toString();
    }

    private static long field(byte[] infoReply, String name) {
        for (String line : new String(infoReply, StandardCharsets.US_ASCII).split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1));
            }
        }
        throw new AssertionError(name + " not in INFO");
    }
}
