package dev.redsim.simulator.engine;

import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.protocol.Outgoing;
import dev.redsim.simulator.server.Connection;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The limits Redis puts on each client, enforced as Redis enforces them: maxclients and protected mode when a
 * connection is accepted, the idle timeout (clientsCron), and client-output-buffer-limit after replies are written. The
 * times follow the simulator's clock, so tests move them with time control.
 */
final class ClientLimits {
    private static final byte[] MAX_CLIENTS_REACHED =
            "-ERR max number of clients reached\r\n".getBytes(StandardCharsets.US_ASCII);
    /** Redis 7.0's text, word for word (its typo included): clients compare it. */
    private static final byte[] DENIED = ("-DENIED Redis is running in protected mode because protected mode is "
            + "enabled and no password is set for the default user. In this mode connections are only accepted from "
            + "the loopback interface. If you want to connect from external computers to Redis you may adopt one of "
            + "the following solutions: 1) Just disable protected mode sending the command 'CONFIG SET protected-mode "
            + "no' from the loopback interface by connecting to Redis from the same host the server is running, "
            + "however MAKE SURE Redis is not publicly accessible from internet if you do so. Use CONFIG REWRITE to "
            + "make this change permanent. 2) Alternatively you can just disable the protected mode by editing the "
            + "Redis configuration file, and setting the protected mode option to 'no', and then restarting the "
            + "server. 3) If you started the server manually just for testing, restart it with the '--protected-mode "
            + "no' option. 4) Setup a an authentication password for the default user. NOTE: You only need to do one "
            + "of the above things in order for the server to start accepting connections from the outside.\r\n")
            .getBytes(StandardCharsets.US_ASCII);

    private final Config config;
    private final Stats stats;
    private String parsedLimits;
    /**
     * The config version at which client-output-buffer-limit was last read: every flush checks the limits, and
     * reading the value by name each time was 2% of a GET without pipelining; it is read again after a CONFIG SET.
     */
    private int limitsVersion = -1;
    private OutputLimit normal = OutputLimit.NONE;
    private OutputLimit pubsub = OutputLimit.NONE;
    private OutputLimit replica = OutputLimit.NONE;

    ClientLimits(Config config, Stats stats) {
        this.config = config;
        this.stats = stats;
    }

    /**
     * acceptCommonHandler: at maxclients, the new connection gets the error and is closed before it becomes a
     * client (what it already sent is never run). Returns whether it was admitted.
     */
    boolean admit(ClientConnection client, int connectedClients) {
        if (connectedClients >= config.getLong("maxclients")) {
            return refuse(client, MAX_CLIENTS_REACHED);
        }
        // clientAcceptHandler: protected mode (on, and the default user has no password) admits loopback only,
        // whatever the bind address
        if ("yes".equals(config.get("protected-mode")) && config.requirePass().isEmpty()
                && !isLoopback(client.connection())) {
            return refuse(client, DENIED);
        }
        return true;
    }

    private boolean refuse(ClientConnection client, byte[] message) {
        stats.rejectedConnections++;
        client.markClosed();
        Connection connection = client.connection();
        if (connection != null) {
            connection.writeThenClose(Outgoing.of(message));
        }
        return false;
    }

    private static boolean isLoopback(Connection connection) {
        return connection == null || !(connection.remoteAddress() instanceof InetSocketAddress peer)
                || peer.getAddress() == null || peer.getAddress().isLoopbackAddress();
    }

    /**
     * clientsCronHandleTimeout: closes clients idle for more than `timeout` seconds. Blocked clients (their own
     * timeout governs them) and pub/sub clients (they wait for messages by design) are never idle-closed.
     */
    List<ClientConnection> idleClients(Collection<ClientConnection> clients, long nowMillis) {
        long timeoutSeconds = config.getLong("timeout");
        List<ClientConnection> idle = new ArrayList<>();
        if (timeoutSeconds <= 0) {
            return idle;
        }
        for (ClientConnection client : clients) {
            if (!client.blocked() && !client.subscriptions().active() && !client.closed()
                    && (nowMillis - client.lastInteractionMillis()) / 1000 > timeoutSeconds) {
                idle.add(client);
            }
        }
        return idle;
    }

    /**
     * checkClientOutputBufferLimits: the bytes a client has not yet taken off the socket, against its class's hard
     * limit (at once) and soft limit (held for longer than its seconds). Returns whether to close the client.
     */
    boolean overOutputLimit(ClientConnection client, TimeSource time) {
        OutputLimit limit = limitFor(client);
        long used = client.unwrittenBytes();
        boolean hard = limit.hardBytes > 0 && used >= limit.hardBytes;
        boolean soft = limit.softBytes > 0 && used >= limit.softBytes;
        // The clock is read only over the soft limit: this runs after every flush, and most flushes are under it.
        if (!soft) {
            client.softLimitReachedMillis(0);
        } else if (client.softLimitReachedMillis() == 0) {
            client.softLimitReachedMillis(time.millis()); // the clock starts now; not over the limit yet
            soft = false;
        } else if ((time.millis() - client.softLimitReachedMillis()) / 1000 <= limit.softSeconds) {
            soft = false;
        }
        return hard || soft;
    }

    private OutputLimit limitFor(ClientConnection client) {
        int version = config.version();
        if (version != limitsVersion) {
            String value = config.get("client-output-buffer-limit");
            if (!value.equals(parsedLimits)) {
                parse(value);
            }
            limitsVersion = version;
        }
        if (client.replica()) {
            return replica;
        }
        return client.subscriptions().active() ? pubsub : normal;
    }

    /** "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60", as CONFIG GET shows it. */
    private void parse(String value) {
        String[] parts = value.trim().split("\\s+");
        for (int i = 0; i + 3 < parts.length; i += 4) {
            OutputLimit limit = new OutputLimit(Long.parseLong(parts[i + 1]), Long.parseLong(parts[i + 2]),
                    Long.parseLong(parts[i + 3]));
            switch (parts[i]) {
                case "normal" -> normal = limit;
                case "pubsub" -> pubsub = limit;
                case "slave", "replica" -> replica = limit;
                default -> { }
            }
        }
        parsedLimits = value;
    }


    private record OutputLimit(long hardBytes, long softBytes, long softSeconds) {
        static final OutputLimit NONE = new OutputLimit(0, 0, 0);
    }
}
