package dev.redsim.simulator.server;

import dev.redsim.simulator.protocol.Outgoing;

import java.net.SocketAddress;
import java.util.concurrent.Executor;

/**
 * One client's socket as the engine sees it, whichever transport carries it: what the engine writes to it, closes,
 * and asks about it. Called on the connection's loop thread (the engine's), except where a method says otherwise.
 */
public interface Connection {
    /**
     * Writes {@code bytes} after whatever is waiting to be written, at once as far as the socket takes them. The
     * segments are read during the call only: the caller may reuse their arrays once it returns (what the socket did
     * not take is copied).
     */
    void write(Outgoing bytes);

    /** As {@link #write}, then closes the connection once everything is written (QUIT, protocol errors). */
    void writeThenClose(Outgoing bytes);

    /** Closes the connection now; unwritten output is dropped. Any thread. */
    void close();

    /** Bytes handed to {@link #write} that the socket has not taken yet (the client is not reading). */
    long unwrittenBytes();

    /** The peer's address, or null when it is not known. */
    SocketAddress remoteAddress();

    /** This side's address, or null when it is not known. */
    SocketAddress localAddress();

    /**
     * The loop that runs this connection's events (the engine's thread): a script that leaves that thread returns to
     * it through this. Refuses tasks with RejectedExecutionException once the loop stops.
     */
    Executor loop();
}
