package dev.redsim.simulator.net;

import dev.redsim.simulator.protocol.Outgoing;
import dev.redsim.simulator.server.Connection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class SocketConnectionTest {
    private static final int MB = 1024 * 1024;

    private final SelectorLoop loop;
    private final SocketListener listener;
    private final BlockingQueue<RecordingDriver> accepted = new LinkedBlockingQueue<>();
    private volatile RecordingDriver.Reaction reaction;

    SocketConnectionTest() throws IOException {
        loop = new SelectorLoop();
        loop.start("test-loop");
        listener = SocketListener.open(loop, new InetSocketAddress("127.0.0.1", 0), 128, connection -> {
            RecordingDriver driver = new RecordingDriver(connection, reaction);
            accepted.add(driver);
            return driver;
        });
    }

    @AfterEach
    void stop() throws InterruptedException {
        loop.shutdown();
        assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aBigReplyWaitsInTheQueueWhileTheClientDoesNotReadAndArrivesWhole() throws Exception {
        int segment = 5 * MB;
        byte[] scratch = new byte[segment]; // the driver's reply buffer, reused for every write as the engine does
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        CountDownLatch wrote = new CountDownLatch(1);
        reaction = (driver, request) -> {
            Outgoing out = new Outgoing();
            for (int k = 0; k < 4; k++) {
                fill(scratch, k);
                byte[] small = ("+small " + k + "\r\n").getBytes(StandardCharsets.US_ASCII);
                out.clear();
                out.add(small, 0, small.length);
                out.add(scratch, 0, segment / 3); // several slices in one write
                out.add(scratch, segment / 3, segment - segment / 3);
                driver.connection.write(out);
                expected.write(small, 0, small.length);
                expected.write(scratch, 0, segment);
                Arrays.fill(scratch, (byte) 0x55); // what the socket did not take must have been copied
                driver.connection.write(Outgoing.of(small));
                expected.write(small, 0, small.length);
            }
            wrote.countDown();
        };
        try (BlockingClient client = new BlockingClient(listener.port())) {
            client.send("GO");
            assertThat(wrote.await(10, TimeUnit.SECONDS)).isTrue();
            Connection connection = accepted.take().connection;
            long waiting = OnLoop.call(loop, connection::unwrittenBytes);
            assertThat(waiting).isPositive().isLessThan(expected.size());

            byte[] all = client.readExactly(expected.size());
            assertThat(Arrays.mismatch(all, expected.toByteArray())).isEqualTo(-1);
            assertThat(OnLoop.call(loop, connection::unwrittenBytes)).isZero();
        }
    }

    @Test
    void writeThenCloseDeliversEverythingThenTheEndOfTheStream() throws Exception {
        byte[] big = new byte[12 * MB];
        fill(big, 7);
        CountDownLatch wrote = new CountDownLatch(1);
        AtomicLong queuedAtClose = new AtomicLong();
        reaction = (driver, request) -> {
            driver.connection.write(Outgoing.of(big));
            driver.connection.writeThenClose(Outgoing.of("+BYE\r\n".getBytes(StandardCharsets.US_ASCII)));
            driver.connection.write(Outgoing.of("+AFTER\r\n".getBytes(StandardCharsets.US_ASCII))); // dropped
            queuedAtClose.set(driver.connection.unwrittenBytes());
            wrote.countDown();
        };
        try (BlockingClient client = new BlockingClient(listener.port())) {
            client.send("QUIT");
            RecordingDriver driver = accepted.take();
            assertThat(wrote.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(queuedAtClose.get()).isPositive(); // the close waits for the queue, which waits for the client
            byte[] all = client.readToEnd();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write(big);
            expected.write("+BYE\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(all.length).isEqualTo(expected.size());
            assertThat(Arrays.mismatch(all, expected.toByteArray())).isEqualTo(-1);
            assertThat(driver.closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(driver.closedCount).hasValue(1);
            assertThat(driver.closedOnLoop).isTrue();
        }
    }

    @Test
    void aDriverThatClosesInsideItsOwnReadHearsClosedOnlyAfterTheReadReturns() throws Exception {
        AtomicBoolean inRead = new AtomicBoolean();
        AtomicBoolean closedInsideRead = new AtomicBoolean();
        reaction = (driver, request) -> {
            inRead.set(true);
            try {
                driver.connection.close(); // as CLIENT KILL of the client running it: the engine is mid-command
                closedInsideRead.set(driver.closedCount.get() > 0);
            } finally {
                inRead.set(false);
            }
        };
        try (BlockingClient client = new BlockingClient(listener.port())) {
            client.send("CLIENT KILL");
            assertThat(client.readToEnd()).isEmpty(); // the socket closed at once
            RecordingDriver driver = accepted.take();
            assertThat(driver.closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(closedInsideRead).as("closed() heard inside the driver's own read").isFalse();
            assertThat(driver.closedCount).hasValue(1);
            assertThat(driver.closedOnLoop).isTrue();
        }
    }

    @Test
    void writeThenCloseWithNothingQueuedClosesAtOnce() throws Exception {
        reaction = (driver, request) ->
                driver.connection.writeThenClose(Outgoing.of("+OK\r\n".getBytes(StandardCharsets.US_ASCII)));
        try (BlockingClient client = new BlockingClient(listener.port())) {
            client.send("QUIT");
            assertThat(new String(client.readToEnd(), StandardCharsets.US_ASCII)).isEqualTo("+OK\r\n");
            RecordingDriver driver = accepted.take();
            assertThat(driver.closed.await(10, TimeUnit.SECONDS)).isTrue(); // told after the socket closed
            assertThat(driver.closedCount).hasValue(1);
        }
    }

    @Test
    void closeFromAnotherThreadEndsTheClientsStreamAndTellsTheDriverOnceOnTheLoop() throws Exception {
        try (BlockingClient client = new BlockingClient(listener.port())) {
            RecordingDriver driver = accepted.take();
            assertThat(driver.opened.await(10, TimeUnit.SECONDS)).isTrue();
            driver.connection.close(); // the test thread is not the loop's
            assertThat(client.read()).isEqualTo(-1);
            assertThat(driver.closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(driver.closedOnLoop).isTrue();
            driver.connection.close();
            loop.shutdown();
            assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(driver.closedCount).hasValue(1);
        }
    }

    @Test
    void thePeerClosingTellsTheDriverExactlyOnceAndTheAddressesStayKnown() throws Exception {
        RecordingDriver driver;
        SocketAddress clientAddress;
        try (BlockingClient client = new BlockingClient(listener.port())) {
            clientAddress = client.socket.getLocalSocketAddress();
            driver = accepted.take();
            client.send("bye");
            assertThat(driver.awaitReceived(3)).isEqualTo(3); // bytes before the end are read, then the end
        }
        assertThat(driver.closed.await(10, TimeUnit.SECONDS)).isTrue();
        driver.connection.close(); // after the peer's close: harmless
        OnLoop.call(loop, () -> {
            driver.connection.close();
            return null;
        });
        loop.shutdown();
        assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(driver.closedCount).hasValue(1);
        assertThat(driver.closedOnLoop).isTrue();
        assertThat(driver.connection.remoteAddress()).isEqualTo(clientAddress);
        assertThat(driver.connection.localAddress()).isEqualTo(new InetSocketAddress("127.0.0.1", listener.port()));
    }

    @Test
    void theLoopsShutdownClosesEveryConnection() throws Exception {
        try (BlockingClient first = new BlockingClient(listener.port()); BlockingClient second = new BlockingClient(listener.port())) {
            RecordingDriver one = accepted.take();
            RecordingDriver two = accepted.take();
            assertThat(two.opened.await(10, TimeUnit.SECONDS)).isTrue();
            loop.shutdown();
            assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(first.read()).isEqualTo(-1);
            assertThat(second.read()).isEqualTo(-1);
            for (RecordingDriver driver : new RecordingDriver[] {one, two}) {
                assertThat(driver.closedCount).hasValue(1);
                assertThat(driver.closedOnLoop).isTrue();
            }
        }
    }

    @Test
    void writesFromAnotherThreadAreCopiedAndKeepTheirOrder() throws Exception {
        try (BlockingClient client = new BlockingClient(listener.port())) {
            Connection connection = accepted.take().connection;
            byte[] reused = "first ".getBytes(StandardCharsets.US_ASCII);
            connection.write(Outgoing.of(reused));
            Arrays.fill(reused, (byte) '!');
            connection.write(Outgoing.of("second ".getBytes(StandardCharsets.US_ASCII)));
            connection.writeThenClose(Outgoing.of("last".getBytes(StandardCharsets.US_ASCII)));
            assertThat(new String(client.readToEnd(), StandardCharsets.US_ASCII)).isEqualTo("first second last");
        }
    }

    @Test
    void aReadAsksForNoMoreThanTheDriversReadSize() throws Exception {
        reaction = (driver, request) -> driver.readSize = 5;
        try (BlockingClient client = new BlockingClient(listener.port())) {
            client.send("x");
            RecordingDriver driver = accepted.take();
            assertThat(driver.awaitReceived(1)).isEqualTo(1);
            byte[] hundred = new byte[100];
            client.send(hundred);
            assertThat(driver.awaitReceived(101)).isEqualTo(101);
            assertThat(driver.largestRead.get()).isLessThanOrEqualTo(5);
        }
    }

    /**
     * One read per connection per turn: while one client streams 50 MB, another's PINGs are each answered, and the
     * big stream is read in pieces of its driver's read size, one per turn of the loop. Counted, not timed: a timer
     * of the shortest period runs once per turn (runs it missed are skipped), so it numbers the turns, and no two of
     * the big stream's reads may share a number.
     */
    @Test
    void aClientStreamingABigValueDoesNotStarveAnother() throws Exception {
        long total = 50L * MB;
        int readSize = 16 * 1024;
        AtomicLong turn = new AtomicLong();
        AtomicLong lastBigReadTurn = new AtomicLong(-1);
        AtomicInteger bigReadsSharingATurn = new AtomicInteger();
        reaction = (driver, bytes) -> {
            if (bytes[0] == 'P') { // the small client: one PING per read, as it waits for each answer
                driver.connection.write(Outgoing.of("+PONG\r\n".getBytes(StandardCharsets.US_ASCII)));
            } else {
                driver.keepBytes = false;
                if (lastBigReadTurn.getAndSet(turn.get()) == turn.get()) {
                    bigReadsSharingATurn.incrementAndGet();
                }
            }
        };
        loop.scheduleAtFixedRate(turn::incrementAndGet, 0, 1, TimeUnit.NANOSECONDS);
        try (BlockingClient big = new BlockingClient(listener.port());
             BlockingClient small = new BlockingClient(listener.port())) {
            RecordingDriver bigDriver = accepted.take();
            bigDriver.readSize = readSize;
            Thread streamer = new Thread(() -> stream(big, total), "big-value-sender");
            streamer.start();
            assertThat(bigDriver.awaitReceived(MB)).isGreaterThanOrEqualTo(MB); // the stream is under way
            long atLastPong = 0;
            for (int i = 0; i < 20; i++) {
                small.send("PING\r\n");
                assertThat(new String(small.readExactly(7), StandardCharsets.US_ASCII)).isEqualTo("+PONG\r\n");
                atLastPong = bigDriver.receivedBytes.get();
            }
            assertThat(atLastPong).isLessThan(total);
            streamer.join(20_000);
            assertThat(bigDriver.awaitReceived(total)).isEqualTo(total);
            assertThat(bigDriver.largestRead.get()).isLessThanOrEqualTo(readSize);
            assertThat(bigReadsSharingATurn).hasValue(0);
        }
    }

    private static void stream(BlockingClient client, long total) {
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        try {
            OutputStream out = client.socket.getOutputStream();
            for (long sent = 0; sent < total; sent += chunk.length) {
                out.write(chunk);
            }
            out.flush();
        } catch (IOException failed) {
            throw new IllegalStateException(failed);
        }
    }

    private static void fill(byte[] array, int seed) {
        for (int i = 0; i < array.length; i++) {
            array[i] = (byte) (i * 7 + seed * 13 + (i >>> 16));
        }
    }
}
