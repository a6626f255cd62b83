package dev.redsim.simulator;

import dev.redsim.simulator.protocol.ReadSizes;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollMode;

/**
 * Epoll connections read level-triggered, as Redis's ae reads: one read per connection per turn of the loop
 * (decision 0048). Edge-triggered, Netty's default, must read a connection until the kernel has nothing more; it does
 * that in a task that queues itself again after every read, and the loop runs 64 tasks before it looks at anything
 * else, so a client sending a big value was read 64 MB at a time while the others waited (a PING waited 0.25 s during
 * a 500 MB SET; redis-server answers it within a few milliseconds). Level-triggered, epoll reports a connection with
 * input left at every turn, and the read handle ({@link ReadSizes#EPOLL_READS}) tells the transport not to read
 * again by itself. Kept apart so that NIO starts never load epoll's classes.
 */
final class EpollReads {
    private EpollReads() {
    }

    static ServerBootstrap levelTriggered(ServerBootstrap bootstrap) {
        return bootstrap.childOption(EpollChannelOption.EPOLL_MODE, EpollMode.LEVEL_TRIGGERED)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, ReadSizes.EPOLL_READS);
    }
}
