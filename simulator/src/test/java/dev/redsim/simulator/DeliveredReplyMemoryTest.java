package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * INFO's mem_clients_normal (and used_memory, which maxmemory and maxmemory-clients act on) no longer counts a reply
 * its client has read whole: Redis measures a client again after writeToClient freed what went out.
 */
class DeliveredReplyMemoryTest {
    /**
     * Small enough for the socket to take at once (its send buffer starts at 16 KB), and above the 4 KB the check
     * allows.
     */
    private static final int VALUE = 8_000;

    @Test
    void aReplyTheClientReadWholeIsNotCountedInMemClientsNormal() throws IOException {
        try (RedisSimulator simulator = RedisSimulator.start();
                Socket reader = new Socket(simulator.host(), simulator.port());
                Socket observer = new Socket(simulator.host(), simulator.port())) {
            reader.setSoTimeout(5000);
            observer.setSoTimeout(5000);
            DataInputStream readerIn = new DataInputStream(reader.getInputStream());
            send(reader, "SETRANGE value " + (VALUE - 1) + " x");
            assertThat(line(readerIn)).isEqualTo(":" + VALUE);
            long before = memClientsNormal(observer);

            send(reader, "GET value");
            assertThat(line(readerIn)).isEqualTo("$" + VALUE);
            readerIn.readFully(new byte[VALUE + 2]); // the whole reply has left the server
            long after = memClientsNormal(observer);

            assertThat(after - before).as("mem_clients_normal after a %d-byte reply was read", VALUE)
                    .isLessThan(4096);
        }
    }

    private static long memClientsNormal(Socket socket) throws IOException {
        send(socket, "INFO memory");
        DataInputStream in = new DataInputStream(socket.getInputStream());
        String header = line(in);
        byte[] body = new byte[Integer.parseInt(header.substring(1)) + 2];
        in.readFully(body);
        return new String(body, StandardCharsets.US_ASCII).lines()
                .filter(field -> field.startsWith("mem_clients_normal:"))
                .mapToLong(field -> Long.parseLong(field.substring("mem_clients_normal:".length()).trim()))
                .findFirst().orElseThrow();
    }

    private static void send(Socket socket, String inline) throws IOException {
        socket.getOutputStream().write((inline + "\r\n").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    private static String line(DataInputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new IOException("closed after " + line);
            }
            line.append((char) c);
        }
        return line.toString().trim();
    }
}
