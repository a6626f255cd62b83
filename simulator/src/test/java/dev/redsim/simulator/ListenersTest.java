package dev.redsim.simulator;

import dev.redsim.simulator.protocol.Input;
import dev.redsim.simulator.server.ConnectionDriver;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A port given up (CONFIG SET port, a cluster node's crash) refuses connections as soon as the change returns, as
 * Redis's closed socket does, whether the change runs on the loop's own thread (CONFIG SET, which can neither wait for
 * a task of its own loop nor let the loop select before the reply) or on another. The JDK closes a registered
 * listening channel only when its selector next drops the channel's key, so a change that returned without that would
 * leave the old port completing connections.
 */
class ListenersTest {
    @Test
    void aPortGivenUpRefusesConnectionsOnceTheChangeReturns() throws Exception {
        OwnThreads threads = OwnThreads.started("listeners-test");
        try {
            Listeners listeners = new Listeners(threads.sockets(connection -> new IgnoringDriver()));
            listeners.start(List.of("127.0.0.1"), 0);
            int first = listeners.port();
            assertThat(accepts(first)).isTrue();
            int second = freePort();
            CompletableFuture<List<Boolean>> onTheLoop = new CompletableFuture<>();
            threads.execute(() -> {
                listeners.changePort(second); // CONFIG SET port, on the loop's own thread
                onTheLoop.complete(List.of(accepts(second), accepts(first)));
            });
            assertThat(onTheLoop.get(10, TimeUnit.SECONDS)).as("new port accepts, old port accepts")
                    .containsExactly(true, false);
            assertThat(listeners.port()).isEqualTo(second);

            int third = freePort();
            listeners.changePort(third); // from another thread: the loop's task, awaited
            assertThat(accepts(second)).as("the second port after the change to the third").isFalse();
            assertThat(accepts(third)).isTrue();

            CompletableFuture<Boolean> afterPortZero = new CompletableFuture<>();
            threads.execute(() -> {
                listeners.changePort(0);
                afterPortZero.complete(accepts(third));
            });
            assertThat(afterPortZero.get(10, TimeUnit.SECONDS)).as("the third port after CONFIG SET port 0 returned")
                    .isFalse();
        } finally {
            threads.stop();
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            return free.getLocalPort();
        }
    }

    private static boolean accepts(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    /** A connection's driver that ignores what it hears: these tests only connect. */
    private static final class IgnoringDriver implements ConnectionDriver {
        @Override
        public void opened() {
        }

        @Override
        public void read(Input input, int newBytes) {
            input.skip(newBytes);
        }

        @Override
        public int nextReadSize() {
            return 16 * 1024;
        }

        @Override
        public void closed() {
        }
    }
}
