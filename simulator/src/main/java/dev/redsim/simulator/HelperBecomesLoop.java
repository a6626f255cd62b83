package dev.redsim.simulator;

import io.netty.util.concurrent.FastThreadLocal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The executor a one-thread Netty loop starts its thread with, handing the loop's body to a thread that is running
 * already: the helper that made the loop while the simulator's own thread wired the engine (decision 0042). Netty
 * asks for its thread once, on the loop's first task; the helper waits for that body and runs it, so a start pays
 * one thread start and a hand-off instead of a thread start per loop.
 */
final class HelperBecomesLoop implements Executor {
    private final CompletableFuture<Runnable> body = new CompletableFuture<>();

    /** Netty's request for the loop's thread: given to the waiting helper. */
    @Override
    public void execute(Runnable loopBody) {
        if (!body.complete(loopBody)) {
            throw new RejectedExecutionException("this loop's thread runs already");
        }
    }

    /** For a start that makes no loop after all: the waiting thread's {@link #runLoop()} returns at once. */
    void release() {
        body.complete(() -> { });
    }

    /**
     * Runs the loop on the calling thread from Netty's first request until the loop stops. The caller must be sure
     * the request comes (its group registers a channel or is shut down), or it waits for ever.
     */
    void runLoop() {
        try {
            body.join().run();
        } finally {
            // what Netty's own loop threads do at their end: the allocator's cache of this thread goes back now
            FastThreadLocal.removeAll();
        }
    }
}
