package dev.redsim.simulator;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.nio.NioEventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A port given up (CONFIG SET port, a cluster node's crash) refuses connections as soon as the change returns, as
 * Redis's closed socket does. The JDK closes a listening NIO channel only when its selector next drops the channel's
 * key; here the accept loop is held busy right after the close (by the listening channel's own inactive event), so a
 * change that returned without a new selector would leave the port accepting.
 */
class ListenersTest {
    @Test
    void aPortGivenUpRefusesConnectionsOnceTheChangeReturns() throws Exception {
        NioEventLoopGroup loop = new NioEventLoopGroup(1);
        CountDownLatch loopHeld = new CountDownLatch(1);
        CountDownLatch letLoopGo = new CountDownLatch(1);
        try {
            ServerBootstrap bootstrap = new ServerBootstrap().group(loop)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
                            loopHeld.countDown(); // the loop runs no select until the test lets it go
                            letLoopGo.await(10, TimeUnit.SECONDS);
                            super.channelInactive(ctx);
                        }
                    })
                    .childHandler(new ChannelInboundHandlerAdapter());
            Listeners listeners = new Listeners(new NettyListeningSockets(bootstrap, Transport.NIO));
            listeners.start(List.of("127.0.0.1"), 0);
            int port = listeners.port();
            assertThat(accepts(port)).isTrue();

            CompletableFuture<Void> change = CompletableFuture.runAsync(() -> listeners.changePort(0));
            assertThat(loopHeld.await(10, TimeUnit.SECONDS)).isTrue();
            try {
                change.get(500, TimeUnit.MILLISECONDS); // a change that does not wait for the socket returns now
            } catch (TimeoutException waitsForTheSocket) {
                letLoopGo.countDown();
                change.get(10, TimeUnit.SECONDS);
            }
            boolean acceptedAfterTheChange = accepts(port);
            letLoopGo.countDown();
            assertThat(acceptedAfterTheChange).as("the old port after CONFIG SET port 0 returned").isFalse();
        } finally {
            letLoopGo.countDown();
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /**
     * An in-process simulator's one loop accepts and runs CONFIG SET port (decision 0042): the change runs on the
     * loop's own thread, which can neither wait for a task of its own loop nor let the loop select before the reply.
     * The new port listens and the old one refuses before the change returns, checked on that thread (no select
     * runs in between); without the selector rebuilt in place the old port still completes connections.
     */
    @Test
    void onTheLoopsOwnThreadAPortChangeTakesEffectBeforeItReturns() throws Exception {
        NioEventLoopGroup loop = new NioEventLoopGroup(1);
        try {
            ServerBootstrap bootstrap = new ServerBootstrap().group(loop).childHandler(new ChannelInboundHandlerAdapter());
            Listeners listeners = new Listeners(new NettyListeningSockets(bootstrap, Transport.NIO));
            listeners.start(List.of("127.0.0.1"), 0);
            int first = listeners.port();
            int second;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                second = free.getLocalPort();
            }
            List<Boolean> moved = loop.submit(() -> {
                listeners.changePort(second);
                return List.of(accepts(second), accepts(first));
            }).get(10, TimeUnit.SECONDS);
            assertThat(moved).as("new port accepts, old port accepts").containsExactly(true, false);
            assertThat(listeners.port()).isEqualTo(second);

            boolean acceptedAfterPortZero = loop.submit(() -> {
                listeners.changePort(0);
                return accepts(second);
            }).get(10, TimeUnit.SECONDS);
            assertThat(acceptedAfterPortZero).as("the old port after CONFIG SET port 0 returned").isFalse();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /**
     * Giving up a port leaves nothing in the user's log: Netty's selector rebuild (the way this was done before
     * decision 0046) logged "Migrated N channel(s) to the new Selector." at INFO for every port given up, from the loop's
     * own thread and from another. Netty logs through java.util.logging on this class path (checked first, so the
     * check cannot pass for want of a logger), and the ports still refuse once each change returns.
     */
    @Test
    void aPortGivenUpLogsNothing() throws Exception {
        assertThat(io.netty.util.internal.logging.InternalLoggerFactory.getDefaultFactory())
                .isInstanceOf(io.netty.util.internal.logging.JdkLoggerFactory.class);
        java.util.logging.Logger nettyLoop = java.util.logging.Logger.getLogger(NioEventLoop.class.getName());
        List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                logged.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        nettyLoop.addHandler(capture);
        NioEventLoopGroup loop = new NioEventLoopGroup(1);
        try {
            ServerBootstrap bootstrap = new ServerBootstrap().group(loop).childHandler(new ChannelInboundHandlerAdapter());
            Listeners listeners = new Listeners(new NettyListeningSockets(bootstrap, Transport.NIO));
            listeners.start(List.of("127.0.0.1"), 0);
            int first = listeners.port();
            int second;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                second = free.getLocalPort();
            }
            listeners.changePort(second); // from this thread: the loop's task, awaited
            assertThat(accepts(first)).as("the first port after the change to the second").isFalse();
            boolean acceptedAfterPortZero = loop.submit(() -> {
                listeners.changePort(0); // on the loop's own thread
                return accepts(second);
            }).get(10, TimeUnit.SECONDS);
            assertThat(acceptedAfterPortZero).as("the second port after CONFIG SET port 0 returned").isFalse();
            int third;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
                third = free.getLocalPort();
            }
            listeners.changePort(third);
            listeners.close();
            assertThat(accepts(third)).as("the third port after the listeners closed").isFalse();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            nettyLoop.removeHandler(capture);
        }
        assertThat(logged).as("what Netty's loop logged").isEmpty();
    }

    private static boolean accepts(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
