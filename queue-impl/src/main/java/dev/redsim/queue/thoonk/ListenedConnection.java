package dev.redsim.queue.thoonk;

import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;

/**
 * A Jedis connection that tells a {@link CommandListener} about every command before sending it. Jedis buffers
 * queued MULTI commands, so the buffer is flushed before the listener runs: when the listener throws, every
 * earlier command has really reached the server, which is what "the client stopped after its k-th command" means.
 */
public final class ListenedConnection extends Connection {
    private final CommandListener listener;
    private int sent;

    public ListenedConnection(HostAndPort address, CommandListener listener) {
        super(address);
        this.listener = listener;
    }

    @Override
    public void sendCommand(CommandArguments args) {
        if (listener == null) {
            // Still inside Connection's constructor (client handshake): not a command of an operation.
            super.sendCommand(args);
            return;
        }
        if (sent > 0) {
            flush();
        }
        listener.beforeCommand(sent, new String(args.getCommand().getRaw(), java.nio.charset.StandardCharsets.UTF_8));
        sent++;
        super.sendCommand(args);
    }
}
