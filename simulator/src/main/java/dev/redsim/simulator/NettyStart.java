package dev.redsim.simulator;

import dev.redsim.simulator.protocol.ReadSizes;
import dev.redsim.simulator.util.Awaited;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The command line's threads on Netty, made on a helper thread while the starting thread reads the configuration and
 * wires the engine and the command room, which need no Netty class (decision 0031): Netty's first use in a JVM (its
 * platform probes, logger lookup, native epoll library, allocator) is a large part of a launch. The engine's loop and
 * an accept loop apart, epoll's where Linux has it: epoll's listening channel binds on its loop, and CONFIG SET port,
 * run on the engine thread, waits for that bind. In-process simulators run on the simulator's own transport instead
 * (decision 0049).
 */
final class NettyStart implements ThreadsStart {
    /** The groups and the bootstrap, ready for the child handler and the listeners. */
    record Loops(EventLoopGroup engine, EventLoopGroup accept, ServerBootstrap bootstrap, Transport transport) {
    }

    private final CompletableFuture<Loops> made = new CompletableFuture<>();

    private NettyStart() {
    }

    /** The engine's and the accept loop's threads, made by Netty on a helper thread from now on. */
    static NettyStart inBackground() {
        NettyStart start = new NettyStart();
        Thread helper = new Thread(start::makeLoops, "redsim-netty-start");
        helper.setDaemon(true);
        helper.start();
        return start;
    }

    private void makeLoops() {
        EventLoopGroup engine = null;
        EventLoopGroup accept = null;
        try {
            Transport transport = Transport.nativeWhereAvailable();
            engine = transport.oneLoop("redsim-engine");
            accept = transport.oneLoop("redsim-accept");
            made.complete(new Loops(engine, accept, bootstrap(engine, accept, transport), transport));
        } catch (RuntimeException | Error e) {
            stopThreads(accept, engine);
            made.completeExceptionally(e);
        }
    }

    private static ServerBootstrap bootstrap(EventLoopGroup engine, EventLoopGroup accept, Transport transport) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(accept, engine)
                .option(ChannelOption.SO_BACKLOG, Listeners.BACKLOG)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, ReadSizes.READS);
        return transport == Transport.EPOLL ? EpollReads.levelTriggered(bootstrap) : bootstrap;
    }

    /**
     * Called by the starting thread once the engine and the command room are wired, before {@link #join()}: Netty's
     * default allocator and first channel id are touched here, while the helper may still be making the groups
     * (decisions 0035, 0042).
     */
    @Override
    public void prepareOnStartingThread() {
        ByteBufAllocator.DEFAULT.getClass();
        io.netty.channel.DefaultChannelId.newInstance();
    }

    @Override
    public ServerThreads join() {
        return new NettyThreads(loops());
    }

    /** The loops, waited for (the helper's writes happen-before the return); a failure is rethrown as it was. */
    private Loops loops() {
        return Awaited.value(made);
    }

    /** For a start that failed on the caller's side: waits for the helper and stops what it made, leaving no thread. */
    @Override
    public void abandon() {
        Loops loops;
        try {
            loops = loops();
        } catch (RuntimeException | Error ignored) {
            return; // the caller's failure is the one reported; the helper stopped what it had made
        }
        stopThreads(loops.engine(), loops.accept());
    }

    /** Stops the groups and waits for them; null ones (never made) are skipped. */
    private static void stopThreads(EventLoopGroup... groups) {
        for (EventLoopGroup group : groups) {
            if (group != null) {
                group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            }
        }
    }
}
