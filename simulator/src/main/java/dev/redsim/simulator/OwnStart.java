package dev.redsim.simulator;

import dev.redsim.simulator.commands.CommandFamilies;
import dev.redsim.simulator.net.SelectorLoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * An in-process simulator's start of its one loop (decision 0049): a thread started first thing makes the loop (its
 * selector: the JDK's NIO classes in a fresh JVM) and runs it, while the starting thread wires the engine; the join
 * waits for the loop to exist. One thread per simulator, as before (decision 0042).
 */
final class OwnStart implements ThreadsStart {
    private final CompletableFuture<SelectorLoop> made = new CompletableFuture<>();

    private OwnStart() {
    }

    static OwnStart inBackground() {
        OwnStart start = new OwnStart();
        // A class, not a lambda: in a fresh JVM the first lambda bootstraps the JDK's lambda machinery (~15-20 ms)
        Thread thread = new Thread(new LoopThread(start.made), "redsim-engine");
        thread.setDaemon(true);
        thread.start();
        return start;
    }

    /** A loop on a new selector. */
    static SelectorLoop newLoop() {
        try {
            return new SelectorLoop();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }

    /** The loop thread's body: makes the loop, hands it over, runs it until it stops. */
    private static final class LoopThread implements Runnable {
        private final CompletableFuture<SelectorLoop> made;

        LoopThread(CompletableFuture<SelectorLoop> made) {
            this.made = made;
        }

        @Override
        public void run() {
            SelectorLoop loop;
            try {
                loop = newLoop();
            } catch (RuntimeException | Error e) {
                made.completeExceptionally(e);
                return;
            }
            made.complete(loop);
            FirstStartInThisJvm.prepare();
            loop.run();
        }
    }

    /**
     * What the first in-process start of a JVM prepares on its loop thread, which is idle until the starting thread has
     * made the engine (about 50 ms of a fresh JVM's start): the command table's layout (reading the compact table, ~30
     * ms), which the starting thread would make next. Once per JVM: the class initialiser does it, and a thread that
     * needs the layout meanwhile waits for it instead of making it again; a failure is left for that thread to meet
     * and report.
     */
    private static final class FirstStartInThisJvm {
        static {
            try {
                CommandFamilies.prepareLayout();
            } catch (RuntimeException | Error e) {
                // the starting thread makes the layout itself and reports what is wrong
            }
        }

        private FirstStartInThisJvm() {
        }

        /** Runs the preparation unless a start of this JVM has; nothing to do here (the initialiser is the work). */
        static void prepare() {
        }
    }

    @Override
    public ServerThreads join() {
        return new OwnThreads(loop());
    }

    private SelectorLoop loop() {
        try {
            return made.join(); // through interrupts, which it keeps: the loop's thread runs, never leave it behind
        } catch (CompletionException e) {
            Throwable cause = e.getCause(); // the loop thread's failure, rethrown as it was
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    @Override
    public void abandon() {
        try {
            new OwnThreads(loop()).stop();
        } catch (RuntimeException | Error ignored) {
            // the caller's failure is the one reported; no loop was made
        }
    }
}
