package dev.redsim.simulator.server;

/** Makes the server's side of a connection a transport has accepted: the client and its driver. */
public interface ConnectionAcceptor {
    ConnectionDriver accepted(Connection connection);
}
