package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stop on the own transport comes through within seconds and frees the port whatever the clients do: one does not
 * read a big reply (tens of megabytes queued), one is in the middle of sending a big value and keeps sending.
 */
class StopWhateverClientsDoTest {
    @Test
    void aStopWithAClientThatDoesNotReadAndOneThatKeepsSendingEndsSoonAndFreesThePort() throws Exception {
        RedisSimulator simulator = RedisSimulator.start();
        int port = simulator.port();
        try (Socket setter = new Socket("127.0.0.1", port); Socket idle = new Socket("127.0.0.1", port);
                Socket streamer = new Socket("127.0.0.1", port)) {
            setter.setSoTimeout(10_000);
            send(setter, "SETRANGE big 40000000 x\r\n");
            assertThat(readLine(setter)).isEqualTo(":40000001");
            idle.setReceiveBufferSize(4096);
            send(idle, "GET big\r\nGET big\r\n"); // never read
            CompletableFuture<Void> streaming = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = streamer.getOutputStream();
                    out.write("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$400000000\r\n".getBytes(StandardCharsets.US_ASCII));
                    byte[] piece = new byte[64 * 1024];
                    while (true) {
                        out.write(piece); // until the server closes the socket
                    }
                } catch (IOException closed) {
                    // the stop closed it
                }
            });
            // the server is busy with both: the big replies queued, the stream read a piece per turn
            send(setter, "PING\r\n");
            assertThat(readLine(setter)).isEqualTo("+PONG");

            long start = System.nanoTime();
            simulator.close();
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertThat(tookMillis).as("the stop's time in ms").isLessThan(3_000);
            try (ServerSocket again = new ServerSocket()) {
                again.bind(new InetSocketAddress("127.0.0.1", port)); // free on return
            }
            streaming.get(10, TimeUnit.SECONDS); // the streaming client saw its socket closed
        }
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    private static String readLine(Socket socket) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = socket.getInputStream().read()) != '\n') {
            if (c < 0) {
                throw new IOException("closed after " + line);
            }
            line.append((char) c);
        }
        return line.toString().trim();
    }
}
