package dev.redsim.simulator.scripting;

import java.util.concurrent.locks.LockSupport;

/**
 * The one thread every script of a server runs on (decision 0004, option 2), with a stack big enough for Lua's
 * own recursion limit to be reached before the JVM's. Jobs come from the engine thread one at a time: the engine
 * never hands over a new script while one runs.
 *
 * <p>Hand-off: the engine writes the job into the volatile {@link #job} (everything the engine prepared before
 * happens-before the script thread reads it) and unparks the thread only when it went to sleep. After a job the
 * thread may spin a little before parking, so a stream of short scripts (EVAL of one command under load) pays no
 * wake-up latency when configured to (see {@link #IDLE_SPIN_NANOS}).
 */
final class ScriptThread {
    /** Lua 5.1's limit (about 20000 calls) needs a few MB of JVM stack in luaj; 16 MB leaves room for C-like calls. */
    private static final long STACK_BYTES = 16L * 1024 * 1024;
    /**
     * How long the idle thread keeps looking for the next job before parking. 0 by default: on the 2-core
     * benchmark machine (server, script thread and redis-benchmark sharing two cores) any idle spinning took CPU
     * from the other two and lowered EVAL throughput; a dedicated core may gain from -Dredsim.scriptIdleSpinNanos.
     */
    private static final long IDLE_SPIN_NANOS = Long.getLong("redsim.scriptIdleSpinNanos", 0);

    private final Thread thread;
    private volatile Runnable job;
    private volatile boolean parked;
    private volatile boolean stopped;

    ScriptThread(String name) {
        thread = new Thread(null, this::loop, name, STACK_BYTES);
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts a job; called on the engine thread, never while another job runs. */
    void submit(Runnable next) {
        job = next;
        if (parked) { // Dekker-style with the volatile pair (job, parked): one of the two sides sees the other
            LockSupport.unpark(thread);
        }
    }

    /** Lets the thread end once idle (server shutdown). */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }

    private void loop() {
        while (!stopped) {
            Runnable next = awaitJob();
            if (next == null) {
                return;
            }
            job = null;
            try {
                next.run();
            } catch (Throwable leaked) { // a job hands its outcome back itself; this thread must outlive any job
                leaked.printStackTrace();
            }
        }
    }

    private Runnable awaitJob() {
        long idleSince = System.nanoTime();
        Runnable next;
        while ((next = job) == null) {
            if (stopped) {
                return null;
            }
            if (System.nanoTime() - idleSince < IDLE_SPIN_NANOS) {
                Thread.onSpinWait();
                continue;
            }
            parked = true;
            if ((next = job) == null) {
                LockSupport.park(this);
            }
            parked = false;
            if (next != null) {
                return next;
            }
        }
        return next;
    }
}
