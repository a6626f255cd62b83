package dev.redsim.simulator.server;

import dev.redsim.simulator.protocol.Input;

/**
 * What a transport tells one connection's side of the server (decoding, the engine), on the connection's loop thread.
 * Each transport makes one per accepted connection, from the {@link Connection} it made for it.
 */
public interface ConnectionDriver {
    /** The connection is accepted and registered: the engine admits it (or refuses it: maxclients, protected mode). */
    void opened();

    /**
     * After each read: {@code input} holds what was read and not yet decoded, the new bytes last ({@code newBytes} of
     * them). The driver decodes and runs what is whole, and leaves the rest in {@code input} for the next read.
     */
    void read(Input input, int newBytes);

    /** How many bytes the connection's next read should ask for (16 KB; 1 MB while a big argument arrives). */
    int nextReadSize();

    /** Once, when the connection is closed, by either side. */
    void closed();
}
