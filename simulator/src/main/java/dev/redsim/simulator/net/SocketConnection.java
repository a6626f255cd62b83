package dev.redsim.simulator.net;

import dev.redsim.simulator.protocol.Outgoing;
import dev.redsim.simulator.server.Connection;
import dev.redsim.simulator.server.ConnectionAcceptor;
import dev.redsim.simulator.server.ConnectionDriver;

import java.io.IOException;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One accepted client socket on a {@link SelectorLoop}: reads into its {@link InputBuffer} for its driver, and writes
 * what the engine hands it, queueing what the socket does not take. All its state is the loop thread's; the methods
 * called from elsewhere hand their work to the loop as a task.
 *
 * <p>Every read and write goes through the loop's one direct buffer, in pieces of its size: given a heap buffer, the
 * JDK would copy through a temporary direct buffer of the same size, and keep it per thread (a 500 MB value would pin
 * 500 MB of native memory to the loop thread).
 */
public final class SocketConnection extends LoopChannel implements Connection {
    /**
     * The most queued output written to one connection per turn (Redis writes 64 KB per event; this takes 16 of the
     * loop buffer's pieces so a fast reader of a big reply is not held to one system call per turn).
     */
    static final long MAX_QUEUED_WRITE_PER_TURN = 1024 * 1024;

    private final SelectorLoop loop;
    private final SocketChannel channel;
    // read once at accept: CLIENT LIST shows them after the peer left, when the socket no longer knows them
    private final SocketAddress remoteAddress;
    private final SocketAddress localAddress;
    private final InputBuffer input = new InputBuffer();
    private final OutputQueue output = new OutputQueue();
    private SelectionKey key;
    private ConnectionDriver driver;
    private boolean closeAfterWrite;
    private boolean writeFailed;
    private boolean closed;

    private SocketConnection(SelectorLoop loop, SocketChannel channel, SocketAddress remoteAddress,
                             SocketAddress localAddress) {
        this.loop = loop;
        this.channel = channel;
        this.remoteAddress = remoteAddress;
        this.localAddress = localAddress;
    }

    /**
     * On the loop thread, a socket its listener accepted: set up, registered for reads, given its driver, and the
     * driver told it is open.
     */
    static void accept(SelectorLoop loop, SocketChannel channel, ConnectionAcceptor acceptor) {
        SocketConnection connection;
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            connection = new SocketConnection(loop, channel, channel.getRemoteAddress(), channel.getLocalAddress());
            connection.key = loop.register(channel, SelectionKey.OP_READ, connection);
        } catch (IOException goneAlready) { // the client reset the connection before it was accepted, say
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing was set up
            }
            return;
        }
        try {
            connection.driver = acceptor.accepted(connection);
            if (!connection.closed) {
                connection.driver.opened();
            }
        } catch (RuntimeException | Error failed) {
            failed.printStackTrace();
            connection.closeNow();
        }
    }

    @Override
    public void write(Outgoing bytes) {
        if (loop.inLoop()) {
            writeOnLoop(bytes);
        } else {
            hand(new WriteTask(this, bytes.toArray(), false)); // copied: the caller reuses its arrays
        }
    }

    @Override
    public void writeThenClose(Outgoing bytes) {
        if (!loop.inLoop()) {
            hand(new WriteTask(this, bytes.toArray(), true));
            return;
        }
        writeOnLoop(bytes);
        if (closed || closeAfterWrite) {
            return;
        }
        if (output.isEmpty()) {
            closeNow();
        } else {
            closeAfterWrite = true; // no more replies; what the client still sends is read, and none of it runs
            updateInterest();
        }
    }

    @Override
    public void close() {
        if (loop.inLoop()) {
            closeNow();
        } else {
            hand(new CloseTask(this));
        }
    }

    @Override
    public long unwrittenBytes() {
        return output.bytes();
    }

    @Override
    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public SocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public Executor loop() {
        return loop;
    }

    @Override
    void ready(int readyOps) {
        try {
            if ((readyOps & SelectionKey.OP_WRITE) != 0) {
                flush();
            }
            if ((readyOps & SelectionKey.OP_READ) != 0 && !closed) {
                // read while closing after the reply too, as Redis reads (and counts, and runs none of) what such a
                // client still sends: a socket closed with unread input is reset (RFC 2525), which throws away the
                // end of the reply the kernel has not sent yet
                read();
            }
        } catch (RuntimeException | Error failed) { // the driver's: its state for this connection is unknown now
            failed.printStackTrace();
            closeNow();
        }
    }

    @Override
    void closeForShutdown() {
        closeNow();
    }

    /**
     * One read of up to the driver's read size (Redis reads once per event, so a client streaming a big value takes
     * its turn like the others), in pieces of the loop buffer's size until the socket has no more: a 1 MB read size
     * is up to 16 system calls rather than a 1 MB direct buffer per loop, which would be idle nearly always.
     */
    private void read() {
        int size = Math.max(1, driver.nextReadSize());
        input.prepareForRead(size);
        ByteBuffer buffer = loop.buffer();
        int total = 0;
        boolean ended = false;
        try {
            while (total < size) {
                int piece = Math.min(buffer.capacity(), size - total);
                buffer.clear().limit(piece);
                int n = channel.read(buffer);
                if (n < 0) {
                    ended = true;
                    break;
                }
                buffer.flip();
                buffer.get(input.array(), input.writeIndex(), n);
                input.written(n);
                total += n;
                if (n < piece) {
                    break; // the socket has no more for now
                }
            }
        } catch (IOException reset) {
            ended = true;
        }
        if (total > 0) {
            driver.read(input, total); // what came before the end is served, as Redis does
        }
        if (ended) {
            closeNow();
        }
    }

    /** The loop writes queued output when the socket takes more. */
    private void flush() {
        try {
            output.writeTo(channel, loop.buffer(), MAX_QUEUED_WRITE_PER_TURN);
        } catch (IOException reset) {
            closeNow(); // the loop is handling this key, not inside the driver: closing at once is safe
            return;
        }
        if (output.isEmpty() && closeAfterWrite) {
            closeNow();
        } else {
            updateInterest();
        }
    }

    private void writeOnLoop(Outgoing bytes) {
        if (closed || closeAfterWrite || writeFailed || bytes.isEmpty()) {
            return;
        }
        if (!output.isEmpty()) {
            queue(bytes, 0, 0); // after what waits; the loop writes it when the socket takes more
            return;
        }
        ByteBuffer buffer = loop.buffer();
        int slice = 0;
        int offset = 0;
        while (slice < bytes.count()) {
            int firstSlice = slice;
            int firstOffset = offset;
            buffer.clear();
            while (slice < bytes.count() && buffer.hasRemaining()) { // small replies gathered into one write
                int n = Math.min(bytes.length(slice) - offset, buffer.remaining());
                buffer.put(bytes.array(slice), bytes.offset(slice) + offset, n);
                offset += n;
                if (offset == bytes.length(slice)) {
                    slice++;
                    offset = 0;
                }
            }
            buffer.flip();
            int filled = buffer.remaining();
            int taken;
            try {
                taken = channel.write(buffer);
            } catch (IOException reset) {
                writeFailed();
                return;
            }
            if (taken < filled) {
                // the socket is full: from the first byte it did not take on, the rest waits in the queue
                slice = firstSlice;
                offset = firstOffset;
                int skip = taken;
                while (skip > 0) {
                    int n = Math.min(bytes.length(slice) - offset, skip);
                    offset += n;
                    skip -= n;
                    if (offset == bytes.length(slice)) {
                        slice++;
                        offset = 0;
                    }
                }
                queue(bytes, slice, offset);
                return;
            }
        }
    }

    /** Copies the slices from {@code slice} (its bytes from {@code offset}) into the queue. */
    private void queue(Outgoing bytes, int slice, int offset) {
        for (int i = slice; i < bytes.count(); i++) {
            int skip = i == slice ? offset : 0;
            output.add(bytes.array(i), bytes.offset(i) + skip, bytes.length(i) - skip);
        }
        updateInterest();
    }

    /**
     * A write failed (the client reset the connection): the output is dropped, and the connection closes as a loop
     * task rather than now, since the driver is in the middle of something (it called write) and would hear closed()
     * inside its own call.
     */
    private void writeFailed() {
        writeFailed = true;
        output.clear();
        hand(new CloseTask(this));
    }

    private void updateInterest() {
        if (key.isValid()) {
            int ops = SelectionKey.OP_READ | (output.isEmpty() ? 0 : SelectionKey.OP_WRITE);
            key.interestOps(ops);
        }
    }

    private void closeNow() {
        if (closed) {
            return;
        }
        closed = true;
        output.clear();
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close(); // the selector releases the socket at its next select, which the loop makes soon
        } catch (IOException ignored) {
            // closed either way
        }
        if (driver != null) {
            tellClosed();
        }
    }

    /**
     * The driver hears closed() as a loop task, not now: a close asked for inside the driver's own call (CLIENT KILL of
     * the client whose command runs, a query buffer past its limit) must not pull the client out from under the code
     * that is still serving it (Netty defers channelInactive the same way). Once the loop is shutting down it is told
     * at once: the loop takes no more tasks.
     */
    private void tellClosed() {
        try {
            loop.execute(new ClosedNotice(driver));
        } catch (RejectedExecutionException shuttingDown) {
            driver.closed();
        }
    }

    /** Hands work to the loop; once the loop is shutting down, it closes every connection itself. */
    private void hand(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException shuttingDown) {
            // the loop's shutdown closes this connection (or did), which drops unwritten output anyway
        }
    }

    /** A write from a thread other than the loop's, with its bytes copied. */
    private static final class WriteTask implements Runnable {
        private final SocketConnection connection;
        private final byte[] bytes;
        private final boolean thenClose;

        WriteTask(SocketConnection connection, byte[] bytes, boolean thenClose) {
            this.connection = connection;
            this.bytes = bytes;
            this.thenClose = thenClose;
        }

        @Override
        public void run() {
            if (thenClose) {
                connection.writeThenClose(Outgoing.of(bytes));
            } else {
                connection.write(Outgoing.of(bytes));
            }
        }
    }

    /** A close from a thread other than the loop's. */
    private static final class CloseTask implements Runnable {
        private final SocketConnection connection;

        CloseTask(SocketConnection connection) {
            this.connection = connection;
        }

        @Override
        public void run() {
            connection.closeNow();
        }
    }

    private static final class ClosedNotice implements Runnable {
        private final ConnectionDriver driver;

        ClosedNotice(ConnectionDriver driver) {
            this.driver = driver;
        }

        @Override
        public void run() {
            driver.closed();
        }
    }
}
