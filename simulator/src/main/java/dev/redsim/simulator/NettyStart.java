package dev.redsim.simulator;

import dev.redsim.simulator.protocol.ReadSizes;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
final class NettyStart implements ThreadsStart {
    /** The groups and the bootstrap, ready for the child handler and the listeners; accept may be engine itself. */
    record Loops(EventLoopGroup engine, EventLoopGroup accept, ServerBootstrap bootstrap, Transport transport) {
    }

    private final CompletableFuture<Loops> made;
    private final boolean ownsGroups;
    /** The command line's start: the starting thread warms the allocator and channel ids, as before decision 0046. */
    private final boolean warmOnStartingThread;
    /**
     * An in-process start's warm-up of the first connection ({@link #prepareFirstConnection()}), claimed by whichever
     * of the two threads is free first: the helper once its loop is made, or the starting thread once it has wired the
     * engine (which of them finishes first varies from run to run and machine to machine). It runs once per JVM: a later
     * start's claim finds it done.
     */
    private final AtomicBoolean warmUpClaimed;
    /** An in-process start's helper, whose loop either thread may make; null for the other starts. */
    private final OneLoopHelper oneLoop;

    private NettyStart(CompletableFuture<Loops> made, boolean ownsGroups, boolean warmOnStartingThread,
            AtomicBoolean warmUpClaimed) {
        this(made, ownsGroups, warmOnStartingThread, warmUpClaimed, null);
    }

    private NettyStart(CompletableFuture<Loops> made, boolean ownsGroups, boolean warmOnStartingThread,
            AtomicBoolean warmUpClaimed, OneLoopHelper oneLoop) {
        this.oneLoop = oneLoop;
        this.made = made;
        this.ownsGroups = ownsGroups;
        this.warmOnStartingThread = warmOnStartingThread;
        this.warmUpClaimed = warmUpClaimed;
    }

    /** A simulator's own event loops, made on a helper thread from now on: epoll's probe too when it is asked for. */
    static NettyStart inBackground(boolean nativeTransport) {
        return nativeTransport ? acceptApartOnHelper() : oneLoopOnHelper();
    }

    /** In process: one NIO loop for accept and the engine, run by the thread that makes it. */
    private static NettyStart oneLoopOnHelper() {
        CompletableFuture<Loops> made = new CompletableFuture<>();
        // A class, not a lambda: in a fresh JVM the first lambda bootstraps the JDK's lambda machinery (~15-20 ms),
        // which the helper would wait for before it starts; the starting thread pays it meanwhile (decision 0046)
        AtomicBoolean warmUpClaimed = new AtomicBoolean();
        OneLoopHelper oneLoop = new OneLoopHelper(made, warmUpClaimed);
        // A plain thread, not Netty's FastThreadLocalThread: that class's initialiser is Netty's logger set-up, which
        // in a fresh JVM would run on this thread before the helper could start (everything up to the join here needs no
        // Netty class: decision 0031); the loop's first task makes its allocator cache instead (decision 0047)
        Thread helper = new Thread(oneLoop, "redsim-engine");
        helper.setDaemon(true);
        helper.start();
        return new NettyStart(made, true, false, warmUpClaimed, oneLoop);
    }

    /**
     * The helper of an in-process simulator, which runs the loop ({@link HelperBecomesLoop}) from its first task to
     * the group's stop. The loop and the bootstrap are made by whichever of the two threads is free first (decision
     * 0047): in a fresh JVM the helper, long before the starting thread has wired the engine (Netty's first use is a
     * third of a first start); in a later start often the starting thread, which would otherwise wait for the new
     * thread to be scheduled and make them.
     */
    private static final class OneLoopHelper implements Runnable {
        private final CompletableFuture<Loops> made;
        private final AtomicBoolean warmUpClaimed;
        private final AtomicBoolean loopClaimed = new AtomicBoolean();
        private final HelperBecomesLoop loopThread = new HelperBecomesLoop();

        OneLoopHelper(CompletableFuture<Loops> made, AtomicBoolean warmUpClaimed) {
            this.made = made;
            this.warmUpClaimed = warmUpClaimed;
        }

        @Override
        public void run() {
            if (loopClaimed.compareAndSet(false, true) && !makeLoop()) {
                return; // nothing was made: no loop to run
            }
            loopThread.runLoop(); // from its first task (the warm-up below) to the group's stop
        }

        /** On the starting thread: makes the loop unless the helper has begun to; either way {@link #made} follows. */
        void makeUnlessClaimed() {
            if (loopClaimed.compareAndSet(false, true) && !makeLoop()) {
                loopThread.release(); // the helper waits for a loop that will not come
            }
        }

        /** On the starting thread after its own failure: true when no loop will be made (the helper has let go). */
        boolean abandonUnlessClaimed() {
            if (loopClaimed.compareAndSet(false, true)) {
                loopThread.release();
                made.completeExceptionally(new IllegalStateException("start abandoned"));
                return true;
            }
            return false;
        }

        /** Makes the loop and the bootstrap and starts the loop; false when it failed before a group existed. */
        private boolean makeLoop() {
            EventLoopGroup group = null;
            try {
                group = Transport.NIO.oneLoop(loopThread);
                ServerBootstrap bootstrap = bootstrap(group, group, Transport.NIO);
                if (warmUpClaimed.compareAndSet(false, true)) {
                    FirstConnectionWarmUp.inThisJvm();
                }
                // The loop starts on the helper now instead of on the listening channel's registration: its start and
                // its thread's own first-use costs run while the starting thread still wires or binds (decision 0047)
                group.execute(new LoopThreadWarmUp());
                made.complete(new Loops(group, group, bootstrap, Transport.NIO));
                return true;
            } catch (RuntimeException | Error e) {
                if (group != null) {
                    group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS); // hands its loop to the helper, to end
                }
                made.completeExceptionally(e);
                return group != null;
            }
        }
    }

    /**
     * The first task of an in-process simulator's loop, run on the loop's own thread before any connection: what the
     * first read of the first connection would otherwise make on that thread while a client waits for its reply.
     * Netty gives every thread that runs a loop an allocator cache of its own (about fifty queues, made the first time
     * the thread allocates: a sixth of the loop's work up to the first reply in a profile of later starts); here it is
     * made by a read buffer of the size the first read asks for, given back at once, so that read takes it from the
     * cache (decision 0047).
     */
    private static final class LoopThreadWarmUp implements Runnable {
        @Override
        public void run() {
            @SuppressWarnings("deprecation") // Netty's read handles are this interface's; its allocate is what reads call
            io.netty.buffer.ByteBuf firstRead = ReadSizes.READS.newHandle().allocate(ByteBufAllocator.DEFAULT);
            firstRead.release();
        }
    }

    /**
     * What the bind and the first connection need besides the loops, once per JVM: the static initialiser runs
     * {@link #prepareFirstConnection()} the first time a start asks, and never again (the JVM initialises a class once),
     * so a later start neither opens a throw-away socket nor keeps a JVM-wide flag of its own (decision 0047).
     */
    private static final class FirstConnectionWarmUp {
        static {
            try {
                prepareFirstConnection();
            } catch (RuntimeException e) {
                // only a warm-up: the bind reports what is wrong, and a class whose initialiser failed would fail every
                // later start of the JVM
            }
        }

        private FirstConnectionWarmUp() {
        }

        /** Runs the warm-up if no start of this JVM has yet; waits for it if another thread is running it now. */
        static void inThisJvm() {
            // initialising the class is the work; nothing to do here
        }
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
                made.complete(new Loops(engine, accept, bootstrap(engine, accept, transport), transport));
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
        return new NettyStart(made, true, true, new AtomicBoolean(true));
    }

    /** A cluster's threads, which its nodes share: two NIO loops, the engine's and the accept loop (decision 0015). */
    static ServerThreads clusterLoops() {
        Transport transport = Transport.NIO; // in-process, as a standalone simulator's (decision 0031)
        EventLoopGroup engine = transport.oneLoop("redsim-cluster");
        EventLoopGroup accept = transport.oneLoop("redsim-cluster-accept");
        return new NettyThreads(new Loops(engine, accept, bootstrap(engine, accept, transport), transport));
    }

    /** Without the listening channel's class: {@link Listeners} sets it, or the channel itself, per socket. */
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
     * What the bind and the first connection need besides the loops, made by whichever thread of an in-process start
     * is free first (the helper once the loop is made, or the starting thread once the engine is wired): in a
     * fresh JVM that is the first use of Netty's channel classes (the channel, its pipeline and configuration, the
     * socket-option classes, NetUtil's probe of somaxconn and the loopback interface), of the default allocator (its
     * arenas are built then), and of the reflection Netty uses to know which events a handler overrides. Done with a
     * listening channel that is never bound or registered, closed at once, so that the bind finds these loaded
     * instead of loading them on the critical path after the join (decision 0046). Everything here is Netty's own
     * once-per-JVM state or the JDK's, so it runs once per JVM ({@link FirstConnectionWarmUp}).
     */
    private static void prepareFirstConnection() {
        ByteBufAllocator.DEFAULT.getClass();
        java.nio.channels.ServerSocketChannel unbound;
        try {
            unbound = java.nio.channels.ServerSocketChannel.open();
        } catch (java.io.IOException e) {
            return; // only a warm-up: the bind will report what is wrong with sockets here
        }
        ListeningChannel warmUp = new ListeningChannel(unbound);
        try {
            warmUp.pipeline().addLast(new io.netty.channel.ChannelInboundHandlerAdapter());
            warmUp.config().getBacklog();
        } finally {
            warmUp.unsafe().closeForcibly();
        }
    }

    /**
     * Called by the starting thread once the engine and the command room are wired, before {@link #join()}: the
     * command line's start (epoll, whose helper makes two groups) touches Netty's default allocator and first channel
     * id here, while its helper may still be making the groups (decisions 0035, 0042); an in-process start warms the
     * first connection here unless its helper, done with the loop already, has claimed that.
     */
    @Override
    public void prepareOnStartingThread() {
        if (warmOnStartingThread) {
            ByteBufAllocator.DEFAULT.getClass();
            io.netty.channel.DefaultChannelId.newInstance();
        } else if (warmUpClaimed.compareAndSet(false, true)) {
            FirstConnectionWarmUp.inThisJvm(); // the helper is still making the loop: this thread would only wait for it
        }
    }

    @Override
    public ServerThreads join() {
        return new NettyThreads(loops());
    }

    /**
     * The loops: made here when an in-process start's helper has not begun to make them, else waited for (the helper's
     * writes happen-before the return); a failure to make them is rethrown as it was.
     */
    Loops loops() {
        if (oneLoop != null) {
            oneLoop.makeUnlessClaimed(); // the helper has not begun: this thread makes the loop instead of waiting
        }
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
    @Override
    public void abandon() {
        if (oneLoop != null && oneLoop.abandonUnlessClaimed()) {
            return; // no loop was made nor will be; the helper ends
        }
        Loops loops;
        try {
            loops = loops();
        } catch (RuntimeException | Error ignored) {
            return; // the caller's failure is the one reported; the helper stopped what it had made
        }
        if (ownsGroups) {
            stopThreads(loops.engine(), loops.accept());
        }
    }

    /** Stops the groups and waits for them (the accept group may be the engine's). */
    static void stopThreads(EventLoopGroup... groups) {
        for (EventLoopGroup g : new java.util.LinkedHashSet<>(java.util.Arrays.asList(groups))) {
            g.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
