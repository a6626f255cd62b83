package dev.redsim.simulator.net;

import dev.redsim.simulator.server.Connection;
import dev.redsim.simulator.server.ConnectionDriver;

/**
 * What a {@link SocketListener} asks for each connection it accepts: the driver that will hear the connection's
 * events (the server's side of it). Called on the loop thread, after the connection is registered and before its
 * driver is told {@link ConnectionDriver#opened()}.
 */
public interface ConnectionAcceptor {
    ConnectionDriver accepted(Connection connection);
}
