package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line's transport (Netty, epoll where Linux has it): QUIT after a big reply, with more input sent after
 * QUIT, delivers the whole reply, +OK, then the end of the stream (CloseAfterReplyTest checks the in-process transport
 * against redis-server). A read after QUIT ended an empty batch, whose flush closed the connection at once and
 * dropped the queued end of the reply.
 */
class CommandLineCloseAfterReplyTest {
    private static final int VALUE = 16 * 1024 * 1024;

    @Test
    void aBigReplyBeforeQuitArrivesWholeThoughTheClientSentMoreAfterQuit() throws Exception {
        try (RedisSimulator simulator = RedisSimulator.builder().nativeTransport().start();
             Socket socket = new Socket(simulator.host(), simulator.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            byte[] value = new byte[VALUE];
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) ('a' + i % 26);
            }
            ByteArrayOutputStream set = new ByteArrayOutputStream();
            set.writeBytes(("*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$" + VALUE + "\r\n").getBytes(StandardCharsets.US_ASCII));
            set.writeBytes(value);
            set.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(set.toByteArray());
            assertThat(new String(in.readNBytes(5), StandardCharsets.US_ASCII)).isEqualTo("+OK\r\n");

            // in one write: GET, QUIT, then 30 KB more than the server's first 16 KB read can hold; not read meanwhile
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n*1\r\n$4\r\nQUIT\r\n".getBytes(StandardCharsets.US_ASCII));
            request.writeBytes("PING\r\n".repeat(5000).getBytes(StandardCharsets.US_ASCII));
            out.write(request.toByteArray());

            byte[] rest = in.readAllBytes(); // to the end of the stream
            String header = "$" + VALUE + "\r\n";
            assertThat(rest.length).as("bytes before the end of the stream")
                    .isEqualTo(header.length() + VALUE + 2 + "+OK\r\n".length());
            assertThat(new String(rest, 0, header.length(), StandardCharsets.US_ASCII)).isEqualTo(header);
            assertThat(java.util.Arrays.mismatch(java.util.Arrays.copyOfRange(rest, header.length(),
                    header.length() + VALUE), value)).isEqualTo(-1);
            assertThat(new String(rest, rest.length - 7, 7, StandardCharsets.US_ASCII)).isEqualTo("\r\n+OK\r\n");
        }
    }
}
