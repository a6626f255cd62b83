package dev.redsim.simulator.scripting;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandProcessor;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.server.ClientConnection;
import org.luaj.vm2.Globals;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

/**
 * Runs scripts (EVAL and FCALL alike) on the server's script thread while the engine thread waits, up to
 * busy-reply-threshold (lua-time-limit). A script that ends in time looks exactly like one run on the engine
 * thread: its reply is written, or its RedisError thrown, before {@link #run} returns. One that runs longer puts
 * the engine in busy mode ({@link dev.redsim.simulator.engine.BusyMode}): {@link #run} returns early, and the
 * caller gets its reply when the script ends. A script that provably ends soon ({@link ShortScripts}) skips the
 * hand-off and runs on the engine thread: it can never become busy, so nothing else changes for it.
 */
public final class ScriptRunner {
    private final Engine engine;
    private final CommandProcessor commands;
    private final ScriptMemory memory = new ScriptMemory();
    private ScriptThread thread;
    private volatile ScriptExecution current;

    public ScriptRunner(Engine engine, CommandProcessor commands) {
        this.engine = engine;
        this.commands = commands;
    }

    /** Makes a Lua state's scripts pausable and killable; every Lua state scripts run in needs it. */
    public void installHook(Globals globals) {
        ScriptHook.install(globals, this);
    }

    /** The memory bound every script of this server runs under. */
    public ScriptMemory memory() {
        return memory;
    }

    /** Whether a script runs now (any thread; for tests that must wait for one to start). */
    public boolean scriptRunning() {
        return current != null;
    }

    /** The script running now (read by the instruction hook on the script thread). */
    ScriptExecution current() {
        return current;
    }

    /**
     * Runs {@code body} (which writes the script's reply to the caller or throws RedisError). Returns normally, or
     * throws the body's RedisError, when the script ended within the time limit; {@code onEnd} has then run.
     * Otherwise the engine is now busy, the caller waits, and {@code onEnd}, the caller's reply and its
     * after-command work run on the engine thread when the script ends.
     *
     * <p>Where it runs: a provably short script on the engine thread. One that can be run again from its start
     * ({@code prepareReplay} not null: an EVAL script whose calls are recorded, decision 0030) starts on the engine
     * thread too and moves to the script thread only when it runs past {@link #engineBudgetNanos} (or nests deep,
     * or starts a coroutine): {@code prepareReplay} then readies its replay, which runs there. Any other script runs
     * on the script thread from its start while the engine thread waits.
     *
     * @param eval          true for EVAL/EVALSHA (SCRIPT KILL), false for FCALL (FUNCTION KILL)
     * @param provablyShort the script provably ends soon: it runs here, on the engine thread
     * @param wrote         whether the script has run a write command so far (it then cannot be killed)
     * @param prepareReplay readies the body to run again from its start on the script thread, or null
     */
    public void run(CommandContext ctx, boolean eval, boolean provablyShort, BooleanSupplier wrote, Runnable body,
            Runnable onEnd, Runnable prepareReplay) {
        ClientConnection caller = ctx.client();
        byte[][] args = ctx.args();
        CommandSpec spec = ctx.spec();
        if (provablyShort) {
            RedisError failure = ScriptExecution.outcome(body);
            onEnd.run();
            if (failure != null) {
                throw failure;
            }
            return;
        }
        ScriptExecution execution = new ScriptExecution(caller, eval, wrote, body, args);
        current = execution;
        if (prepareReplay != null) {
            execution.speculateFor(engineBudgetNanos());
            RedisError failure;
            try {
                failure = ScriptExecution.outcome(body);
            } catch (SpeculationAbort moving) {
                failure = MOVED;
            }
            execution.speculateFor(-1);
            if (failure != MOVED) {
                current = null;
                onEnd.run();
                if (failure != null) {
                    throw failure;
                }
                return;
            }
            prepareReplay.run();
        }
        if (thread == null) {
            thread = new ScriptThread("redsim-script-" + engine.port());
        }
        commands.forkCallsForScriptThread();
        thread.submit(execution::runOnScriptThread);
        Executor loop = busyLoop(caller);
        boolean ended = execution.awaitOrDetach(limitNanos(), loop, () -> lateEnd(execution, onEnd));
        if (!ended) {
            // The caller's command now returns on this thread (the call stack, tracking, propagation and the
            // caller's input are touched on the way out) while the script goes on: the script holds still at its
            // next checkpoint until that is done, resumed by a task that runs after this one. From then on the
            // engine thread touches nothing of the script's until it ends or pauses (BusyMode.whilePaused).
            boolean held = execution.pause();
            engine.busy().enter(execution, spec.fullName());
            if (held) {
                resumeLater(loop, execution);
            }
            return;
        }
        current = null;
        commands.scriptThreadCallsEnded();
        onEnd.run();
        if (execution.failure() != null) {
            throw execution.failure();
        }
    }

    /** Marks a script that left the engine thread for the script thread (never thrown). */
    private static final RedisError MOVED = new RedisError("moved to the script thread");

    /**
     * How long a script may run on the engine thread before it moves to the script thread: long enough for any
     * transition script (a queue's runs for well under a millisecond), short enough that running its start again
     * costs little. Other clients wait meanwhile, as they wait for any script up to busy-reply-threshold, which it
     * never exceeds.
     */
    private long engineBudgetNanos() {
        return Math.min(limitNanos(), ENGINE_BUDGET_NANOS);
    }

    private static final long ENGINE_BUDGET_NANOS = Long.getLong("redsim.scriptEngineBudgetMicros", 10_000) * 1_000;

    private static void resumeLater(Executor loop, ScriptExecution execution) {
        try {
            loop.execute(execution::resume);
        } catch (RejectedExecutionException stopping) {
            execution.resume(); // the server stops: the script meets its kill at the next checkpoint
        }
    }

    /** The script ended after the engine went busy: on the engine thread, as an event-loop task. */
    private void lateEnd(ScriptExecution execution, Runnable onEnd) {
        current = null;
        commands.scriptThreadCallsEnded();
        onEnd.run();
        engine.busy().exit(execution);
    }

    /**
     * busy-reply-threshold in nanoseconds, measured on the real monotonic clock as Redis does (a frozen
     * simulator clock must not make scripts unbounded).
     */
    private long limitNanos() {
        long millis = engine.config().getLong("busy-reply-threshold");
        return millis > Long.MAX_VALUE / 1_000_000 ? Long.MAX_VALUE : millis * 1_000_000;
    }

    /**
     * The event loop the engine returns to when the script overruns, or null when it must wait however long the
     * script takes: a client without a channel, or a script inside MULTI/EXEC, whose remaining queued commands
     * cannot be resumed later.
     */
    private static Executor busyLoop(ClientConnection caller) {
        if (caller.connection() == null || caller.denyBlocking()) {
            return null;
        }
        return caller.connection().loop();
    }

    /**
     * Server shutdown: a running script stops at its next checkpoint, whatever it wrote (as SHUTDOWN NOSAVE ends an
     * unkillable one), so that the engine thread it holds can stop; then the script thread ends. Any thread.
     */
    public void shutdown() {
        ScriptExecution running = current;
        if (running != null) {
            running.kill();
            running.resume(); // one held at a checkpoint (its caller's command returning) meets the kill there
        }
        if (thread != null) {
            thread.stop();
        }
    }
}
