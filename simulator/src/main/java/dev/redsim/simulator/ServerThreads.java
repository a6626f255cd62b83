package dev.redsim.simulator;

import dev.redsim.simulator.server.ConnectionAcceptor;

import java.util.concurrent.TimeUnit;

/**
 * The threads one simulator runs on, whichever transport carries its sockets: the engine's loop, which runs every
 * command, timer and connection event (Redis's main thread), and the transport that accepts. An in-process simulator
 * has one loop of the simulator's own transport (a cluster's nodes share one), on the command line too (decisions
 * 0049, 0051).
 */
interface ServerThreads {
    /** Runs the task on the engine's loop, after the tasks queued before it. Any thread. */
    void execute(Runnable task);

    /** Whether the calling thread is the engine's loop. */
    boolean inEngineThread();

    /** Runs the task on the engine's loop every {@code period}, the first time after {@code initialDelay}. */
    void scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit);

    /** The listening sockets of one server on these threads: each accepted connection goes to {@code acceptor}. */
    ListeningSockets sockets(ConnectionAcceptor acceptor);

    /**
     * Stops the threads and closes every socket they serve, their ports free on return; bounded, so a stop (SIGTERM
     * in the command line) comes through whatever a client left the engine doing.
     */
    void stop();
}
