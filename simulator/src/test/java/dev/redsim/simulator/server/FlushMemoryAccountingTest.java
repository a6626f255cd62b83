package dev.redsim.simulator.server;

import dev.redsim.simulator.protocol.Outgoing;
import dev.redsim.simulator.protocol.Reply;
import org.junit.jupiter.api.Test;

import java.net.SocketAddress;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * After a flush the engine measures the client again (Engine.outputWritten: client-output-buffer-limit, then
 * clientMemoryChanged, which feeds mem_clients_normal, used_memory and maxmemory-clients eviction). A batch the socket
 * took whole is gone from the client by then, as Redis measures a client after writeToClient freed what it wrote.
 */
class FlushMemoryAccountingTest {
    private static final int REPLY = 200_000;

    @Test
    void aBatchTheSocketTookWholeIsNotCountedWhenTheEngineMeasuresTheClientAfterTheFlush() {
        Recording server = new Recording();
        TakesEverything socket = new TakesEverything();
        ClientConnection client = new ClientConnection(1, socket, new Reply(), server, 0);
        long idle = client.memoryUsage();

        client.reply().bulk(new byte[REPLY], 0, REPLY);
        client.flush();

        assertThat(socket.written).isGreaterThan(REPLY); // the socket took the whole batch
        assertThat(server.measured).as("the client's memory as the engine measured it after the flush")
                .isEqualTo(idle);
    }

    /** A socket that takes every byte at once. */
    private static final class TakesEverything implements Connection {
        long written;

        @Override
        public void write(Outgoing bytes) {
            written += bytes.bytes();
        }

        @Override
        public void writeThenClose(Outgoing bytes) {
            write(bytes);
        }

        @Override
        public void close() {
        }

        @Override
        public long unwrittenBytes() {
            return 0;
        }

        @Override
        public SocketAddress remoteAddress() {
            return null;
        }

        @Override
        public SocketAddress localAddress() {
            return null;
        }

        @Override
        public Executor loop() {
            return Runnable::run;
        }
    }

    /** A server that records the client's memory when told its output was written. */
    private static final class Recording implements ServerContext {
        long measured = -1;

        @Override
        public boolean authRequired() {
            return false;
        }

        @Override
        public ClientUser defaultUser() {
            return new ClientUser() {
                @Override
                public String name() {
                    return "default";
                }

                @Override
                public boolean nopass() {
                    return true;
                }

                @Override
                public boolean enabled() {
                    return true;
                }

                @Override
                public boolean readsEveryKey() {
                    return true;
                }
            };
        }

        @Override
        public long protoMaxBulkLen() {
            return 512L * 1024 * 1024;
        }

        @Override
        public long queryBufferLimit() {
            return 1024L * 1024 * 1024;
        }

        @Override
        public void countNetInput(long bytes) {
        }

        @Override
        public void countNetOutput(long bytes) {
        }

        @Override
        public void outputWritten(ClientConnection client) {
            measured = client.memoryUsage();
        }
    }
}
