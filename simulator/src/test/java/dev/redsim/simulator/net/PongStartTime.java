package dev.redsim.simulator.net;

import dev.redsim.simulator.protocol.Input;
import dev.redsim.simulator.protocol.Outgoing;
import dev.redsim.simulator.server.Connection;
import dev.redsim.simulator.server.ConnectionAcceptor;
import dev.redsim.simulator.server.ConnectionDriver;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * Not a test: a measure of the transport's own share of an in-process simulator's first start (issue 20). Run in a
 * fresh JVM, it starts a loop and a listener whose driver answers +PONG to any read, connects a client, and prints the
 * time from main to the client's PONG. No lambdas, as on the start path.
 *
 * <pre>java -cp simulator/target/classes:simulator/target/test-classes dev.redsim.simulator.net.PongStartTime</pre>
 */
public final class PongStartTime {
    private static final byte[] PING = {'P', 'I', 'N', 'G', '\r', '\n'};
    private static final byte[] PONG = {'+', 'P', 'O', 'N', 'G', '\r', '\n'};

    private PongStartTime() {
    }

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        SelectorLoop loop = new SelectorLoop();
        loop.start("redsim-loop");
        SocketListener listener = SocketListener.open(loop, new InetSocketAddress("127.0.0.1", 0), 511, new Pong());
        long listening = System.nanoTime();
        try (SocketChannel client = SocketChannel.open(new InetSocketAddress("127.0.0.1", listener.port()))) {
            client.write(ByteBuffer.wrap(PING));
            ByteBuffer reply = ByteBuffer.allocate(PONG.length);
            while (reply.hasRemaining() && client.read(reply) >= 0) {
                // a blocking read: until the whole reply came
            }
            long pong = System.nanoTime();
            if (reply.hasRemaining()) {
                throw new IllegalStateException("no PONG");
            }
            // printed after measuring: a string concatenation's first use costs milliseconds of its own
            System.out.printf("listening %.1f ms, PONG %.1f ms after main%n",
                    (listening - start) / 1e6, (pong - start) / 1e6);
        }
        loop.shutdown();
        loop.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** The acceptor and, for every connection, its driver: each read is answered +PONG. */
    private static final class Pong implements ConnectionAcceptor {
        @Override
        public ConnectionDriver accepted(Connection connection) {
            return new PongDriver(connection);
        }
    }

    private static final class PongDriver implements ConnectionDriver {
        private final Connection connection;
        private final Outgoing reply = new Outgoing();

        PongDriver(Connection connection) {
            this.connection = connection;
        }

        @Override
        public void opened() {
        }

        @Override
        public void read(Input input, int newBytes) {
            input.skip(input.readableBytes());
            reply.clear();
            reply.add(PONG, 0, PONG.length);
            connection.write(reply);
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
