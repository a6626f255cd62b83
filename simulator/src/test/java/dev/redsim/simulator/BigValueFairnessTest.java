package dev.redsim.simulator;

import org.junit.jupiter.api.Test;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While one client sends a big value, another client's PING is answered after at most a read or two of the big
 * one, as Redis's event loop reads each connection once per turn (decision 0048). Measured in bytes, not time: how
 * far the big value's sender got between a PING and its PONG. The command line's former transport (Netty's epoll,
 * edge-triggered by default) read such a connection 64 MB at a time in a task that queued itself again, so PINGs
 * waited for up to 64 MB of it; one read per turn leaves the sender a few megabytes ahead at most (a read of 1 MB and
 * the sockets' buffers). The command line and in-process simulators share one transport (decision 0051).
 */
class BigValueFairnessTest {
    private static final long SIZE = 256L * 1024 * 1024;
    private static final long MOST_PROGRESS_PER_PING = 24L * 1024 * 1024;

    @Test
    void theTransportServesOthersBetweenReadsOfABigValue() throws Exception {
        try (RedisSimulator simulator = RedisSimulator.start()) {
            assertThat(mostSentDuringAPing(simulator)).isLessThan(MOST_PROGRESS_PER_PING);
        }
    }

    /** Sends a SET of {@link #SIZE} bytes while PINGing; the most bytes of it sent while a PING waited. */
    private static long mostSentDuringAPing(RedisSimulator simulator) throws Exception {
        AtomicLong sent = new AtomicLong();
        try (Socket big = new Socket(simulator.host(), simulator.port());
             Socket pinger = new Socket(simulator.host(), simulator.port())) {
            big.setSoTimeout(60_000);
            pinger.setSoTimeout(60_000);
            pinger.setTcpNoDelay(true);
            Thread sender = new Thread(() -> sendBigSet(big, sent), "big-value-sender");
            OutputStream ping = pinger.getOutputStream();
            InputStream pong = pinger.getInputStream();
            sender.start();
            long most = 0;
            int pings = 0;
            while (sent.get() < SIZE) {
                long before = sent.get();
                ping.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                ping.flush();
                assertThat(new String(pong.readNBytes(7), StandardCharsets.US_ASCII)).isEqualTo("+PONG\r\n");
                most = Math.max(most, sent.get() - before);
                pings++;
            }
            sender.join();
            byte[] ok = big.getInputStream().readNBytes(5);
            assertThat(new String(ok, StandardCharsets.US_ASCII)).isEqualTo("+OK\r\n");
            assertThat(pings).as("PINGs answered while the value was sent").isGreaterThan(10);
            return most;
        }
    }

    private static void sendBigSet(Socket socket, AtomicLong sent) {
        try {
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            out.write(("*3\r\n$3\r\nSET\r\n$3\r\nbig\r\n$" + SIZE + "\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] piece = new byte[1 << 16];
            for (long at = 0; at < SIZE; at += piece.length) {
                out.write(piece);
                sent.addAndGet(piece.length);
            }
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
