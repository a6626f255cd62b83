package dev.redsim.simulator.util;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** The value a helper thread completes, waited for without giving up on an interrupt. */
public final class Awaited {
    private Awaited() {
    }

    /**
     * The future's value, waited for however often the calling thread is interrupted meanwhile (the helper starts
     * threads: the caller must never leave it running behind it); the interrupt is kept for the caller. A failure is
     * rethrown as it was (a checked one wrapped in IllegalStateException).
     */
    public static <T> T value(CompletableFuture<T> future) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    interrupted = true;
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
}
