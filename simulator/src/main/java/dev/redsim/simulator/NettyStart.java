package dev.redsim.simulator;

import dev.redsim.simulator.protocol.RespDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Netty's side of a simulator's start: its event loops and the server bootstrap with its socket options, everything
 * but the connections' handlers and the listening channel's class (the listeners choose it: decision 0042). In a
 * fresh JVM this is Netty's first use (its platform probes, logger lookup, selector, allocator: about a third of a
 * first start), so a simulator that owns its threads makes it on a helper thread while its own thread reads the
 * configuration and wires the engine and the command room, which need no Netty class (decision 0031).
 *
 * <p>An in-process simulator has one NIO loop, which accepts and runs the engine, and the helper thread that made it
 * goes on as that loop's thread ({@link HelperBecomesLoop}): a later start in the JVM starts one thread, not three
 * (decision 0042). The command line keeps an accept loop apart from the engine's (epoll, whose listening channel
 * binds on its loop: CONFIG SET port, run on the engine thread, waits for that bind).
 */
final class NettyStart {
    /** The groups and the bootstrap, ready for the child handler and the listeners; accept may be engine itself. */
    record Loops(EventLoopGroup engine, EventLoopGroup accept, ServerBootstrap bootstrap, Transport transport) {
    }

    private final CompletableFuture<Loops> made;
    private final boolean ownsGroups;

    private NettyStart(CompletableFuture<Loops> made, boolean ownsGroups) {
        this.made = made;
        this.ownsGroups = ownsGroups;
    }

    /** A simulator's own event loops, made on a helper thread from now on: epoll's probe too when it is asked for. */
    static NettyStart inBackground(boolean nativeTransport) {
        return nativeTransport ? acceptApartOnHelper() : oneLoopOnHelper();
    }

    /** In process: one NIO loop for accept and the engine, run by the thread that makes it. */
    private static NettyStart oneLoopOnHelper() {
        CompletableFuture<Loops> made = new CompletableFuture<>();
        HelperBecomesLoop loopThread = new HelperBecomesLoop();
        Thread helper = new Thread(() -> {
            EventLoopGroup group = null;
            try {
                group = Transport.NIO.oneLoop(loopThread);
                made.complete(new Loops(group, group, bootstrap(group, group), Transport.NIO));
            } catch (RuntimeException | Error e) {
                if (group != null) {
                    group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS); // hands its loop to this thread, below
                }
                made.completeExceptionally(e);
                if (group == null) {
                    return;
                }
            }
            loopThread.runLoop(); // from the first task (the listening channel's registration) to the group's stop
        }, "redsim-engine");
        helper.setDaemon(true);
        helper.start();
        return new NettyStart(made, true);
    }

    /** The command line's: the engine's and the accept loop's threads, made by Netty, epoll's where Linux has it. */
    private static NettyStart acceptApartOnHelper() {
        CompletableFuture<Loops> made = new CompletableFuture<>();
        Thread helper = new Thread(() -> {
            EventLoopGroup engine = null;
            EventLoopGroup accept = null;
            try {
                Transport transport = Transport.nativeWhereAvailable();
                engine = transport.oneLoop("redsim-engine");
                accept = transport.oneLoop("redsim-accept");
                made.complete(new Loops(engine, accept, bootstrap(engine, accept), transport));
            } catch (RuntimeException | Error e) {
                for (EventLoopGroup group : new EventLoopGroup[] {accept, engine}) {
                    if (group != null) {
                        group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
                    }
                }
                made.completeExceptionally(e);
            }
        }, "redsim-netty-start");
        helper.setDaemon(true);
        helper.start();
        return new NettyStart(made, true);
    }

    /** A cluster node's: the loops its cluster shares, already made, so the bootstrap is made here and now. */
    static NettyStart shared(EventLoopGroup engine, EventLoopGroup accept, Transport transport) {
        return new NettyStart(CompletableFuture.completedFuture(
                new Loops(engine, accept, bootstrap(engine, accept), transport)), false);
    }

    /** Without the listening channel's class: {@link Listeners} sets it, or the channel itself, per socket. */
    private static ServerBootstrap bootstrap(EventLoopGroup engine, EventLoopGroup accept) {
        return new ServerBootstrap()
                .group(accept, engine)
                .option(ChannelOption.SO_BACKLOG, Listeners.BACKLOG)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, RespDecoder.READS);
    }

    /**
     * What the bind and the first connection need besides the loops, made on the starting thread while the helper
     * still makes the loops (in a fresh JVM the starting thread is done first since decision 0035): Netty's default
     * allocator, whose first use builds its arenas (Netty's own once-per-JVM state; later starts find it made). The
     * channels' ids no longer need Netty's first channel id, which probed the process id and the network interfaces'
     * MAC addresses: an in-process simulator's channels take a {@link LocalChannelId} (decision 0046).
     */
    static void prepareFirstConnection() {
        ByteBufAllocator.DEFAULT.getClass();
    }

    /** Waits for the loops (the helper's writes happen-before the return); its failure is rethrown as it was. */
    Loops join() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return made.get();
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
