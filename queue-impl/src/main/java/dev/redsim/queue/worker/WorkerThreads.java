package dev.redsim.queue.worker;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The threads of the worker runtimes: daemons (a runtime never keeps a JVM alive), stopped without surprises. */
public final class WorkerThreads {
    private WorkerThreads() {
    }

    /** A named daemon thread, not started. */
    public static Thread daemon(Runnable body, String name) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    /** A one-thread scheduler on a named daemon thread (heartbeats, scheduler and recovery). */
    public static ScheduledExecutorService scheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> daemon(r, name));
    }

    /** Waits up to {@code millis} for a thread to end; an interrupt ends the wait and stays set. */
    public static void join(Thread t, long millis) {
        try {
            t.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
