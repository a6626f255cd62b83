package dev.redsim.simulator.net;

import dev.redsim.simulator.server.ConnectionAcceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SocketListenerTest {
    private static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

    private final SelectorLoop loop;
    private final CompletableFuture<RecordingDriver> driver = new CompletableFuture<>();
    private final ConnectionAcceptor acceptor = connection -> {
        RecordingDriver accepted = new RecordingDriver(connection, null);
        driver.complete(accepted);
        return accepted;
    };

    SocketListenerTest() throws IOException {
        loop = new SelectorLoop();
    }

    @AfterEach
    void stop() throws InterruptedException {
        loop.shutdown();
        assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void listensWhenOpenReturnsAndHandsAClientsBytesToItsDriver() throws Exception {
        loop.start("test-loop");
        SocketListener listener = SocketListener.open(loop, ANY_PORT, 128, acceptor);
        assertThat(listener.port()).isPositive();
        assertThat(listener.localAddress().getPort()).isEqualTo(listener.port());
        try (BlockingClient client = new BlockingClient(listener.port())) {
            client.send("hello");
            RecordingDriver accepted = driver.get(10, TimeUnit.SECONDS);
            assertThat(accepted.opened.await(10, TimeUnit.SECONDS)).isTrue();
            awaitBytes(accepted, 5);
            assertThat(new String(accepted.received(), StandardCharsets.US_ASCII)).isEqualTo("hello");
            assertThat(accepted.connection.remoteAddress()).isEqualTo(client.socket.getLocalSocketAddress());
            assertThat(accepted.connection.localAddress()).isEqualTo(client.socket.getRemoteSocketAddress());
        }
    }

    @Test
    void aListenerOpenedBeforeTheLoopRunsAcceptsOnceItDoes() throws Exception {
        SocketListener listener = SocketListener.open(loop, ANY_PORT, 128, acceptor); // the loop is not running yet
        try (BlockingClient client = new BlockingClient(listener.port())) { // the kernel completes it: the socket listens
            client.send("x");
            loop.start("test-loop");
            awaitBytes(driver.get(10, TimeUnit.SECONDS), 1);
        }
    }

    @Test
    void aTakenPortIsTheOpenersIOException() throws Exception {
        loop.start("test-loop");
        SocketListener listener = SocketListener.open(loop, ANY_PORT, 128, acceptor);
        try (java.net.ServerSocket other = new java.net.ServerSocket()) {
            other.setReuseAddress(false);
            other.bind(new InetSocketAddress("127.0.0.1", 0));
            InetSocketAddress taken = new InetSocketAddress("127.0.0.1", other.getLocalPort());
            assertThatThrownBy(() -> SocketListener.open(loop, taken, 128, acceptor)).isInstanceOf(IOException.class);
        }
        listener.close();
    }

    @Test
    void closedFromTheLoopThreadTheSocketIsClosedAtOnce() throws Exception {
        loop.start("test-loop");
        SocketListener listener = SocketListener.open(loop, ANY_PORT, 128, acceptor);
        connectOnce(listener.port());
        int port = listener.port();
        // all on the loop thread, in one task: the loop selects nothing in between
        String outcome = OnLoop.call(loop, () -> {
            listener.close();
            try (Socket refused = new Socket()) {
                refused.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                return "a client connected after close()";
            } catch (ConnectException expected) {
                // refused, as it should be
            }
            SocketListener again = SocketListener.open(loop, new InetSocketAddress("127.0.0.1", port), 128, acceptor);
            again.close();
            return "refused, and bound again on " + again.port();
        });
        assertThat(outcome).isEqualTo("refused, and bound again on " + port);
    }

    @Test
    void closedFromAnotherThreadTheSocketIsClosedWhenCloseReturns() throws Exception {
        loop.start("test-loop");
        SocketListener listener = SocketListener.open(loop, ANY_PORT, 128, acceptor);
        connectOnce(listener.port());
        int port = listener.port();
        listener.close();
        assertThatThrownBy(() -> {
            try (Socket refused = new Socket()) {
                refused.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            }
        }).isInstanceOf(ConnectException.class);
        SocketListener again = SocketListener.open(loop, new InetSocketAddress("127.0.0.1", port), 128, acceptor);
        assertThat(again.port()).isEqualTo(port);
        again.close();
        listener.close(); // twice is harmless
    }

    @Test
    void theLoopsShutdownClosesItsListeners() throws Exception {
        loop.start("test-loop");
        SocketListener listener = SocketListener.open(loop, ANY_PORT, 128, acceptor);
        connectOnce(listener.port());
        loop.shutdown();
        assertThat(loop.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> new Socket("127.0.0.1", listener.port()).close())
                .isInstanceOf(ConnectException.class);
        listener.close(); // after the loop ended: harmless
        assertThatThrownBy(() -> SocketListener.open(loop, ANY_PORT, 128, acceptor)).isInstanceOf(IOException.class);
    }

    /** A connection the listener accepted: it is registered with the loop then. */
    private void connectOnce(int port) throws Exception {
        try (BlockingClient client = new BlockingClient(port)) {
            assertThat(driver.get(10, TimeUnit.SECONDS).opened.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    static void awaitBytes(RecordingDriver driver, long count) throws InterruptedException {
        assertThat(driver.awaitReceived(count)).isEqualTo(count);
    }
}
