package dev.redsim.simulator;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Netty's transport for the command line's sockets: epoll where Linux has it (redis-benchmark drives the command line
 * with many connections: decision 0031), NIO elsewhere. In-process simulators run on the simulator's own transport
 * (decision 0049).
 */
enum Transport {
    NIO,
    EPOLL;

    /** Epoll where the native library loads (Linux), NIO elsewhere. */
    static Transport nativeWhereAvailable() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /** A group of one event loop whose daemon thread is named after {@code threadName}. */
    EventLoopGroup oneLoop(String threadName) {
        DefaultThreadFactory threads = new DefaultThreadFactory(threadName, true);
        return this == EPOLL ? new EpollEventLoopGroup(1, threads) : new NioEventLoopGroup(1, threads);
    }

    Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
