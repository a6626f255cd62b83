package dev.redsim.simulator.scripting;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.BusyScript;
import dev.redsim.simulator.server.ClientConnection;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One script running on the script thread, and the only ways the engine thread and the script thread talk about
 * it. Every edge below is a happens-before edge, so only one thread touches the keyspace, the clients and the
 * reply buffers at a time:
 * <ul>
 * <li>start: the engine prepares everything, then hands the job over a volatile ({@link ScriptThread#submit});</li>
 * <li>quick end: the script thread writes the reply (or {@link #failure}), then moves {@link #state} from RUNNING
 * to DONE; the waiting engine thread reads DONE and carries on as if the script had run on its own thread;</li>
 * <li>busy: the engine gives up waiting by moving RUNNING to DETACHED (a compare-and-set, so exactly one of the
 * two outcomes wins) and returns to the event loop; from then on it touches shared state only while the script
 * is parked at a checkpoint of its instruction hook ({@link #pause}/{@link #resume}, under {@link #monitor});</li>
 * <li>late end: the script thread marks {@link #finished} under the monitor and hands {@link #complete} to the
 * event loop as a task, which runs the caller's reply and after-command work on the engine thread.</li>
 * </ul>
 */
public final class ScriptExecution implements BusyScript {
    static final String KILLED = "ERR Script killed by user with SCRIPT KILL...";
    private static final int RUNNING = 0;
    private static final int DONE = 1;
    private static final int DETACHED = 2;
    /**
     * How long the waiting engine thread spins before parking. Measured on the shared 2-core machine: spinning
     * (10-100 us, with or without yielding) lost to parking at once, since the spinning thread holds a core the
     * script thread or the client needs; -Dredsim.scriptSpinNanos tunes it for machines with cores to spare.
     */
    private static final long SPIN_NANOS = Long.getLong("redsim.scriptSpinNanos", 0);

    private final ClientConnection caller;
    private final boolean eval;
    private final BooleanSupplier wrote;
    private final Runnable body;
    private final byte[][] command;
    private final long startNanos;
    private long speculationDeadline; // engine thread only; handed to the script thread's run with the job
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final Object monitor = new Object();
    private Thread engineThread;
    private volatile boolean engineParked;
    private volatile boolean killed;
    private volatile boolean pauseRequested;
    private RedisError failure; // written by the script thread before DONE / finished, read after
    private Executor eventLoop; // written by the engine thread before DETACHED, read after
    private Runnable completion; // idem
    private boolean paused; // guarded by monitor
    private boolean finished; // guarded by monitor
    private boolean completed; // engine thread only
    private final Runnable completeTask = this::complete; // made up front: the hand-back must not need the heap

    ScriptExecution(ClientConnection caller, boolean eval, BooleanSupplier wrote, Runnable body, byte[][] command) {
        this.caller = caller;
        this.eval = eval;
        this.wrote = wrote;
        this.body = body;
        this.command = command;
        this.startNanos = System.nanoTime();
    }

    /**
     * While it runs on the engine thread (decision 0030): the script moves to the script thread once it ran
     * {@code budgetNanos} from its start; a negative budget ends that phase.
     */
    void speculateFor(long budgetNanos) {
        speculationDeadline = budgetNanos < 0 ? 0 : startNanos + budgetNanos;
    }

    /** System.nanoTime() past which the script leaves the engine thread, or 0 when it runs where it is. */
    long speculationDeadline() {
        return speculationDeadline;
    }

    /** The EVAL / FCALL command line that runs the script (FUNCTION STATS shows it). */
    public byte[][] command() {
        return command;
    }

    /** When the script started, on the monotonic clock Redis measures script durations with. */
    public long startNanos() {
        return startNanos;
    }

    public ClientConnection caller() {
        return caller;
    }

    /** EVAL family (true) or FCALL (false): the two get different BUSY and KILL texts. */
    public boolean eval() {
        return eval;
    }

    /** Whether the script ran a write command (it can then no longer be killed). Engine thread, while paused. */
    public boolean wrote() {
        return wrote.getAsBoolean();
    }

    /** The failure the script ended with, or null; read by the engine after the end. */
    public RedisError failure() {
        return failure;
    }

    // ---- script thread ----

    /**
     * The job the script thread runs: the body, then the hand-back of its outcome, which happens whatever way the
     * body ends (OutOfMemoryError and StackOverflowError included): the engine must never wait for a script that
     * is gone.
     */
    void runOnScriptThread() {
        try {
            failure = outcome(body);
        } finally {
            handBack();
        }
    }

    /**
     * Runs a script body and returns how it failed (its RedisError, or an internal error for anything else,
     * OutOfMemoryError and StackOverflowError included), or null when it succeeded.
     */
    static RedisError outcome(Runnable body) {
        try {
            body.run();
            return null;
        } catch (SpeculationAbort moving) {
            throw moving; // not an outcome: the script goes on on the script thread
        } catch (RedisError e) {
            return e;
        } catch (Throwable bug) {
            return internalError(bug);
        }
    }

    private static RedisError internalError(Throwable bug) {
        try {
            bug.printStackTrace();
            return new RedisError("ERR redsim internal error in script: " + bug);
        } catch (Throwable again) { // the heap may still be short while the error unwinds
            return INTERNAL_ERROR;
        }
    }

    private static final RedisError INTERNAL_ERROR = new RedisError("ERR redsim internal error in script");

    private void handBack() {
        if (state.compareAndSet(RUNNING, DONE)) {
            if (engineParked) {
                LockSupport.unpark(engineThread);
            }
            return;
        }
        synchronized (monitor) {
            finished = true;
            monitor.notifyAll();
        }
        try {
            eventLoop.execute(completeTask);
        } catch (RejectedExecutionException stopping) {
            // the server shut down while the script ran: nobody is left to reply to
        }
    }

    /** Called by the instruction hook every few instructions: parks while the engine works, dies when killed. */
    void checkpoint() {
        if (pauseRequested) {
            synchronized (monitor) {
                paused = true;
                monitor.notifyAll();
                while (pauseRequested) {
                    waitOn();
                }
                paused = false;
            }
        }
        if (killed) {
            throw ScriptError.redis(KILLED);
        }
    }

    boolean killed() {
        return killed;
    }

    // ---- engine thread ----

    /**
     * Waits for the script to end within {@code limitNanos} (spinning first, then parking). Returns true when it
     * ended; false when the engine detached and the script goes on in busy mode, its end handed to
     * {@code loop} as a task running {@code onLateEnd}.
     */
    boolean awaitOrDetach(long limitNanos, Executor loop, Runnable onLateEnd) {
        long start = startNanos; // the limit counts from the script's start, its time on the engine thread included
        while (state.get() == RUNNING && System.nanoTime() - start < SPIN_NANOS) {
            Thread.onSpinWait();
        }
        engineThread = Thread.currentThread();
        while (state.get() == RUNNING) {
            long remaining = loop == null ? Long.MAX_VALUE : limitNanos - (System.nanoTime() - start);
            if (remaining <= 0) {
                break;
            }
            engineParked = true;
            if (state.get() == RUNNING) {
                LockSupport.parkNanos(this, remaining);
            }
            engineParked = false;
        }
        if (state.get() == DONE) {
            return true;
        }
        eventLoop = loop;
        completion = onLateEnd;
        return !state.compareAndSet(RUNNING, DETACHED); // lost the race: the script just ended
    }

    /**
     * Stops the script at its next checkpoint so the engine can touch shared state. Returns false when the
     * script ended instead (nothing to resume; its completion should run first).
     */
    public boolean pause() {
        synchronized (monitor) {
            pauseRequested = true;
            while (!paused && !finished) {
                waitOn();
            }
            if (!paused) {
                pauseRequested = false;
                return false;
            }
            return true;
        }
    }

    public void resume() {
        synchronized (monitor) {
            pauseRequested = false;
            monitor.notifyAll();
        }
    }

    /** SCRIPT KILL / FUNCTION KILL accepted: the script raises the kill error at its next checkpoint. */
    public void kill() {
        killed = true;
    }

    /**
     * After SCRIPT KILL / FUNCTION KILL was accepted and the script resumed: waits for it to raise the kill
     * error (at its very next checkpoint) and completes it now, so that, as in Redis, the killer's next command
     * already finds the server free. Engine thread.
     */
    public void endIfKilled() {
        if (!killed) {
            return;
        }
        synchronized (monitor) {
            while (!finished) {
                waitOn();
            }
        }
        complete();
    }

    /** The late end, on the engine thread: once, whether from the script's task or found while pausing. */
    public void complete() {
        if (completed) {
            return;
        }
        completed = true;
        completion.run();
    }

    private void waitOn() {
        try {
            monitor.wait();
        } catch (InterruptedException e) {
            // Neither thread is ever interrupted on purpose; keep waiting for the other side.
        }
    }
}
