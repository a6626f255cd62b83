package dev.redsim.simulator;

import dev.redsim.simulator.protocol.RespDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelId;
import io.netty.channel.EventLoopGroup;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * Netty's side of a simulator's start: its two event loop groups (the engine's, the accept loop's) and the server
 * bootstrap with its socket options, everything but the connections' handlers. In a fresh JVM this is Netty's first
 * use (its platform probes, logger lookup, selector, allocator: about a third of a first start), so a simulator that
 * owns its threads makes it on a helper thread while its own thread reads the configuration and wires the engine
 * and the command room, which need no Netty class (decision 0031).
 */
final class NettyStart {
    /** The groups and the bootstrap, ready for the child handler and the bind. */
    record Loops(EventLoopGroup engine, EventLoopGroup accept, ServerBootstrap bootstrap) {
    }

    private final FutureTask<Loops> task;
    private final boolean ownsGroups;

    private NettyStart(FutureTask<Loops> task, boolean ownsGroups) {
        this.task = task;
        this.ownsGroups = ownsGroups;
    }

    /** A simulator's own event loops, made on a helper thread from now on: epoll's probe too when it is asked for. */
    static NettyStart inBackground(boolean nativeTransport) {
        FutureTask<Loops> task = new FutureTask<>(() -> {
            Transport transport = nativeTransport ? Transport.nativeWhereAvailable() : Transport.NIO;
            EventLoopGroup engine = null;
            EventLoopGroup accept = null;
            try {
                engine = transport.oneLoop("redsim-engine");
                accept = transport.oneLoop("redsim-accept");
                return new Loops(engine, accept, bootstrap(engine, accept, transport));
            } catch (RuntimeException | Error e) {
                for (EventLoopGroup made : new EventLoopGroup[] {accept, engine}) {
                    if (made != null) {
                        made.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
                    }
                }
                throw e;
            }
        });
        Thread helper = new Thread(task, "redsim-netty-start");
        helper.setDaemon(true);
        helper.start();
        return new NettyStart(task, true);
    }

    /** A cluster node's: the loops its cluster shares, already made, so the bootstrap is made here and now. */
    static NettyStart shared(EventLoopGroup engine, EventLoopGroup accept, Transport transport) {
        FutureTask<Loops> task = new FutureTask<>(() -> new Loops(engine, accept, bootstrap(engine, accept, transport)));
        task.run();
        return new NettyStart(task, false);
    }

    private static ServerBootstrap bootstrap(EventLoopGroup engine, EventLoopGroup accept, Transport transport) {
        return new ServerBootstrap()
                .group(accept, engine)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 511)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, RespDecoder.READS);
    }

    /**
     * What the bind and the first connection need besides the loops, made on the starting thread while the helper
     * still makes the loops (in a fresh JVM the starting thread is done first since decision 0035): Netty's default
     * allocator, whose first use builds its arenas, and a channel id, whose first one probes the process id and the
     * network interfaces' MAC addresses. Both are Netty's own once-per-JVM state; later starts find them made.
     */
    static void prepareFirstConnection() {
        ByteBufAllocator.DEFAULT.getClass();
        DefaultChannelId.newInstance();
    }

    /** Waits for the loops (the helper's writes happen-before the return); its failure is rethrown as it was. */
    Loops join() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the helper starts threads: never leave it running behind us
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** For a start that failed on the caller's side: waits for the helper and stops what it made, leaving no thread. */
    void abandon() {
        Loops loops;
        try {
            loops = join();
        } catch (RuntimeException | Error ignored) {
            return; // the caller's failure is the one reported; the helper stopped what it had made
        }
        if (ownsGroups) {
            RedisSimulator.stopThreads(loops.engine(), loops.accept());
        }
    }
}
