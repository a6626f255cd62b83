package dev.redsim.simulator;

import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.engine.TimeSource;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientDriver;
import dev.redsim.simulator.server.Connection;
import dev.redsim.simulator.server.ConnectionAcceptor;
import dev.redsim.simulator.server.ConnectionDriver;

/** A simulator's clients, one per accepted connection, whichever transport accepted it. */
final class ClientAcceptor implements ConnectionAcceptor {
    private final Engine engine;
    private final TimeSource time;

    ClientAcceptor(Engine engine, TimeSource time) {
        this.engine = engine;
        this.time = time;
    }

    @Override
    public ConnectionDriver accepted(Connection connection) {
        ClientConnection client = new ClientConnection(engine.nextClientId(), connection, new Reply(), engine,
                time.millis());
        return new ClientDriver(engine, engine, client);
    }
}
