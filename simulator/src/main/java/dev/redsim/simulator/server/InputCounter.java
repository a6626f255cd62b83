package dev.redsim.simulator.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Counts the bytes of each read from a client before the decoder sees them, as Redis's readQueryFromClient adds
 * every read to stat_net_input_bytes before it parses the commands in it (so a command's own bytes are counted
 * when it runs: INFO's total_net_input_bytes includes the INFO command). One instance serves every connection.
 */
@ChannelHandler.Sharable
public final class InputCounter extends ChannelInboundHandlerAdapter {
    private final ServerContext server;

    public InputCounter(ServerContext server) {
        this.server = server;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf bytes) {
            server.countNetInput(bytes.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }
}
