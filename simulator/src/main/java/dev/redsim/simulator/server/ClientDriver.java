package dev.redsim.simulator.server;

import dev.redsim.simulator.protocol.Input;
import dev.redsim.simulator.protocol.RespParser;

import java.util.ArrayList;
import java.util.List;

/**
 * One client connection's side of the server, whichever transport carries it: counts what each read brought, decodes
 * it, hands each command to the engine and ends the batch, when the engine flushes the replies, once per read
 * (Redis's readQueryFromClient, processInputBuffer, and the write in beforeSleep).
 */
public final class ClientDriver implements ConnectionDriver {
    private final ConnectionEvents events;
    private final ServerContext server;
    private final ClientConnection client;
    private final RespParser parser;
    private final List<Object> decoded = new ArrayList<>();

    public ClientDriver(ConnectionEvents events, ServerContext server, ClientConnection client) {
        this.events = events;
        this.server = server;
        this.client = client;
        this.parser = new RespParser(client);
    }

    @Override
    public void opened() {
        events.connected(client);
    }

    @Override
    public void read(Input input, int newBytes) {
        // Redis adds every read to stat_net_input_bytes before it parses it: INFO's total_net_input_bytes includes the
        // INFO command's own bytes
        server.countNetInput(newBytes);
        while (input.readableBytes() > 0) {
            int before = input.readableBytes();
            parser.decode(input, decoded);
            if (parser.closing()) {
                // past client-query-buffer-limit: Redis frees the client before it runs anything of this read
                decoded.clear();
                client.connection().close();
                return;
            }
            boolean none = decoded.isEmpty();
            for (Object message : decoded) {
                events.received(client, message);
            }
            decoded.clear();
            if (none && input.readableBytes() == before) {
                break; // what is left is not a whole command yet
            }
        }
        events.readComplete(client);
    }

    @Override
    public int nextReadSize() {
        return parser.nextReadSize();
    }

    @Override
    public void closed() {
        events.disconnected(client);
    }
}
