package dev.redsim.simulator.server;

/**
 * What a connection's driver reports about it, implemented by the engine above: the driver stays a thin adapter,
 * and the engine never calls into it.
 */
public interface ConnectionEvents {
    void connected(ClientConnection client);

    /** One decoded message: a command's arguments (byte[][] or a ChunkedCommand) or a protocol error. */
    void received(ClientConnection client, Object message);

    /** The end of one read batch: the moment replies are flushed. */
    void readComplete(ClientConnection client);

    void disconnected(ClientConnection client);
}
