package dev.redsim.simulator.protocol;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * NIO (the in-process simulators' transport) reads as many bytes into a read's buffer as the read handle says it
 * attempted (NioSocketChannel.doReadBytes). A handle reporting one byte more than the buffer holds (what epoll's
 * one-read-per-turn needs, decision 0048) made NIO grow every read's buffer to twice its size, a reallocation and a
 * copy of the buffer per read, and read one byte past the size asked for. Each read keeps the size it was given.
 */
class NioReadBuffersTest {
    private static final int SENT = 4 * 1024 * 1024;

    @Test
    void nioReadsKeepTheBufferTheyAskedFor() throws Exception {
        List<Integer> capacities = new CopyOnWriteArrayList<>();
        AtomicLong received = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        EventLoopGroup group = new NioEventLoopGroup(1);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.RCVBUF_ALLOCATOR, ReadSizes.READS)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf read = (ByteBuf) msg;
                            capacities.add(read.capacity());
                            if (received.addAndGet(read.readableBytes()) >= SENT) {
                                all.countDown();
                            }
                            read.release();
                        }
                    })
                    .bind("127.0.0.1", 0).sync().channel();
            try (Socket client = new Socket()) {
                client.connect((InetSocketAddress) server.localAddress());
                OutputStream out = client.getOutputStream();
                out.write(new byte[SENT]);
                out.flush();
                assertThat(all.await(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                server.close().sync();
            }
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
        assertThat(capacities).isNotEmpty().allSatisfy(capacity -> assertThat(capacity).isEqualTo(16 * 1024));
    }
}
