package dev.redsim.simulator;

import dev.redsim.simulator.util.ChunkedBytes;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The point of keeping a big value in chunks (decision 0048): while a 64 MB value is SET and read back, the
 * simulator's threads allocate no byte array bigger than one chunk, so nothing zeroes 64 MB in one step with every
 * thread of the JVM waiting (a second client's PING waited 0.4 s behind a 500 MB SET before). Checked with JFR's
 * record of every allocation outside a thread's TLAB (where all big arrays go); the client streams the value from and
 * into small buffers, and its own thread is left out.
 */
class BigValueAllocationTest {
    private static final int SIZE = 64 * 1024 * 1024;

    @Test
    void aBigSetAndGetMakeNoArrayBiggerThanAChunk(@TempDir Path dir) throws Exception {
        int chunk = ChunkedBytes.chunkSizeFor(Integer.MAX_VALUE);
        assertThat(chunk).isLessThan(SIZE / 4);
        Path file = dir.resolve("allocations.jfr");
        try (RedisSimulator simulator = RedisSimulator.start();
             Socket socket = new Socket(simulator.host(), simulator.port());
             Recording recording = new Recording()) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            recording.enable("jdk.ObjectAllocationOutsideTLAB");
            recording.start();
            out.write(("*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$" + SIZE + "\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] piece = new byte[1 << 20];
            for (int at = 0; at < SIZE; at += piece.length) {
                fill(piece, at);
                out.write(piece);
            }
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(line(in)).isEqualTo("+OK");
            out.write("*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(line(in)).isEqualTo("$" + SIZE);
            byte[] expected = new byte[piece.length];
            for (int at = 0; at < SIZE; at += piece.length) {
                in.readNBytes(piece, 0, piece.length);
                fill(expected, at);
                assertThat(piece).as("bytes from " + at).isEqualTo(expected);
            }
            assertThat(line(in)).isEmpty();
            recording.stop();
            recording.dump(file);
        }
        String testThread = Thread.currentThread().getName();
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        assertThat(events).as("the recording saw allocations outside TLABs").isNotEmpty();
        List<String> bigArrays = events.stream()
                .filter(e -> e.getClass("objectClass").getName().equals("[B")) // byte[], as the JVM names it
                .filter(e -> e.getLong("allocationSize") > chunk + 64L)
                .filter(e -> e.getThread("eventThread") == null
                        || !testThread.equals(e.getThread("eventThread").getJavaName()))
                .map(e -> e.getLong("allocationSize") + " bytes on " + e.getThread("eventThread").getJavaName())
                .toList();
        assertThat(bigArrays).as("byte arrays over one chunk (%d bytes) made by the simulator", chunk).isEmpty();
    }

    private static void fill(byte[] piece, int offset) {
        for (int i = 0; i < piece.length; i++) {
            int at = offset + i;
            piece[i] = (byte) (at * 31 + (at >>> 20));
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new IOException("closed");
            }
            if (c != '\r') {
                text.append((char) c);
            }
        }
        return text.toString();
    }
}
