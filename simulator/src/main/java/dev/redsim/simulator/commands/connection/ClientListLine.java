package dev.redsim.simulator.commands.connection;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.server.ClientConnection;

/**
 * One line of CLIENT LIST / CLIENT INFO, with Redis 7.0's fields in its order. Buffer and memory figures are
 * Redis's values for an idle connection, whatever the simulator's own buffers hold.
 */
public final class ClientListLine {
    private ClientListLine() {
    }

    static String of(ClientConnection client, CommandContext ctx) {
        // The calling client is in the middle of this command, which Redis already shows as its cmd.
        return of(client, ctx.now(), client == ctx.client(), ctx.spec().fullName());
    }

    /**
     * The line of a client; {@code running} tells whether it is in the middle of {@code runningCommand} (which it
     * then shows as its cmd, idle 0), as the ACL log describes the client whose command it refused.
     */
    public static String of(ClientConnection client, long now, boolean running, String runningCommand) {
        String cmd = running ? runningCommand : client.lastCommand();
        StringBuilder line = new StringBuilder(256);
        line.append("id=").append(client.id())
                .append(" addr=").append(client.address())
                .append(" laddr=").append(client.localAddress())
                .append(" fd=").append(8 + client.id())
                .append(" name=").append(client.name())
                .append(" age=").append(Math.max(0, (now - client.createdMillis()) / 1000))
                .append(" idle=").append(running ? 0
                        : Math.max(0, (now - client.lastInteractionMillis()) / 1000))
                .append(" flags=").append(flags(client))
                .append(" db=").append(client.db())
                .append(" sub=").append(client.subscriptions().channels().size())
                .append(" psub=").append(client.subscriptions().patterns().size())
                .append(" ssub=").append(client.subscriptions().shardChannels().size())
                .append(" multi=").append(queuedCount(client))
                .append(" qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=").append(client.multiState().memoryEstimate())
                .append(" rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=1024 events=r")
                .append(" cmd=").append(cmd)
                .append(" user=").append(client.user().name())
                .append(" redir=").append(client.tracking().on() ? client.tracking().redirect() : -1)
                .append(" resp=").append(client.protocol());
        return line.toString();
    }

    /**
     * Redis's flag letters in its order (S: a replica, P: pub/sub, x: in MULTI, b: blocked, t: tracking, R: its
     * redirect client is gone, B: tracking in BCAST mode, d: a watched key changed, e: no-evict), N for none.
     */
    private static String flags(ClientConnection client) {
        StringBuilder flags = new StringBuilder(4);
        if (client.replica()) {
            flags.append('S');
        }
        if (client.subscriptions().active()) {
            flags.append('P');
        }
        if (client.multiState().active()) {
            flags.append('x');
        }
        if (client.blocked()) {
            flags.append('b');
        }
        if (client.tracking().on()) {
            flags.append('t');
        }
        if (client.tracking().brokenRedirect()) {
            flags.append('R');
        }
        if (client.tracking().bcast()) {
            flags.append('B');
        }
        if (client.multiState().dirtyCas()) {
            flags.append('d');
        }
        if (client.noEvict()) {
            flags.append('e');
        }
        return flags.isEmpty() ? "N" : flags.toString();
    }

    /** Commands queued since MULTI, -1 outside a transaction. */
    private static int queuedCount(ClientConnection client) {
        return client.multiState().active() ? client.multiState().queued().size() : -1;
    }
}
