package dev.redsim.simulator.server;

/** What a connection needs to know about its server at accept time, and the traffic it reports back to it. */
public interface ServerContext {
    /** Whether clients that have not authenticated must do so first: the default user has a password or is off. */
    boolean authRequired();

    /** The user every new connection starts as (Redis's DefaultUser). */
    ClientUser defaultUser();

    long protoMaxBulkLen();

    /** client-query-buffer-limit. */
    long queryBufferLimit();

    /** Bytes read from a client (INFO total_net_input_bytes). */
    void countNetInput(long bytes);

    /** Bytes written to a client (INFO total_net_output_bytes). */
    void countNetOutput(long bytes);

    /** Replies were handed to a client's socket: the server checks its output buffer limit. */
    void outputWritten(ClientConnection client);
}
