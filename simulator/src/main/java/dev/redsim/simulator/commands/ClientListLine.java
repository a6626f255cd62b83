package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.server.ClientConnection;

/**
 * One line of CLIENT LIST / CLIENT INFO, with Redis 7.0's fields in its order. Buffer and memory figures are
 * Redis's values for an idle connection: the simulator's buffers live in Netty and are not per-client.
 */
final class ClientListLine {
    private ClientListLine() {
    }

    static String of(ClientConnection client, CommandContext ctx) {
        long now = ctx.now();
        // The calling client is in the middle of this command, which Redis already shows as its cmd.
        String cmd = client == ctx.client() ? ctx.spec().fullName() : client.lastCommand();
        StringBuilder line = new StringBuilder(256);
        line.append("id=").append(client.id())
                .append(" addr=").append(client.address())
                .append(" laddr=").append(client.localAddress())
                .append(" fd=").append(8 + client.id())
                .append(" name=").append(client.name())
                .append(" age=").append(Math.max(0, (now - client.createdMillis()) / 1000))
                .append(" idle=").append(client == ctx.client() ? 0
                        : Math.max(0, (now - client.lastInteractionMillis()) / 1000))
                .append(" flags=").append(flags(client))
                .append(" db=").append(client.db())
                .append(" sub=").append(client.subscriptions().channels().size())
                .append(" psub=").append(client.subscriptions().patterns().size())
                .append(" ssub=").append(client.subscriptions().shardChannels().size())
                .append(" multi=-1 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0")
                .append(" rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=1024 events=r")
                .append(" cmd=").append(cmd)
                .append(" user=default redir=-1 resp=").append(client.protocol());
        return line.toString();
    }

    /** The flag letters in Redis's order (P pub/sub, e no-evict), or N for none. */
    private static String flags(ClientConnection client) {
        StringBuilder flags = new StringBuilder(4);
        if (client.subscriptions().active()) {
            flags.append('P');
        }
        if (client.noEvict()) {
            flags.append('e');
        }
        return flags.length() == 0 ? "N" : flags.toString();
    }
}
