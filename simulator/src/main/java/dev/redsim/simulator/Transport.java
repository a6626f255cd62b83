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
 * Netty's transport for a simulator's sockets. In-process simulators use NIO: the JDK's selector is already in the
 * JVM, while the native epoll transport first probes for its library (extracted from the jar to a temporary file and
 * loaded), about 40 ms of a first start in a fresh JVM, and the few connections of a test gain nothing from it. The
 * command line, which redis-benchmark drives with many connections, asks for epoll where Linux has it
 * (decision 0031).
 */
enum Transport {
    NIO,
    EPOLL;

    /** Epoll where the native library loads (Linux), NIO elsewhere. */
    static Transport nativeWhereAvailable() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /** A group of one NIO event loop whose thread {@code startsTheThread} provides (decision 0042). */
    EventLoopGroup oneLoop(java.util.concurrent.Executor startsTheThread) {
        if (this != NIO) {
            throw new IllegalStateException("a loop on a given thread is NIO's: " + this);
        }
        return new NioEventLoopGroup(1, startsTheThread);
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
