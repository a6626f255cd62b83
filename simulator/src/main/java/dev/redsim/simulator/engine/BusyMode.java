package dev.redsim.simulator.engine;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.server.ClientConnection;

/**
 * The engine while a script runs past busy-reply-threshold (Redis's "timed out" script, isInsideYieldingLongCommand):
 * the caller waits, its further input deferred; every other client's command runs only while the script is parked
 * at a checkpoint ({@link #whilePaused}), and the dispatch gate answers all but the ALLOW_BUSY commands with
 * -BUSY; timers and blocked-client work wait for the end. Touched only on the engine thread.
 */
public final class BusyMode {
    static final String BUSY_EVAL = "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
    static final String BUSY_FUNCTION = "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";

    private final Engine engine;
    private BusyScript script;
    private String commandName;
    private long startedNanos;

    BusyMode(Engine engine) {
        this.engine = engine;
    }

    public boolean active() {
        return script != null;
    }

    /** The script that made the engine busy, or null. */
    public BusyScript script() {
        return script;
    }

    /** Whether this client is waiting for the busy script's reply. */
    public boolean isCaller(ClientConnection client) {
        return script != null && script.caller() == client;
    }

    /** The -BUSY text for the running script's kind (processCommand's slowevalerr / slowscripterr). */
    public String rejection() {
        return script.eval() ? BUSY_EVAL : BUSY_FUNCTION;
    }

    /** The engine gave up waiting for a script: the caller now waits like a blocked client. */
    public void enter(BusyScript running, String fullName) {
        script = running;
        commandName = fullName;
        startedNanos = running.startNanos(); // the command's duration counts from the script's start
        running.caller().blocked(true);
    }

    /**
     * Runs engine work (a read, a flush, a disconnect) while the busy script is parked at a checkpoint, so the
     * two threads never touch shared state at once. If the script ended meanwhile, its completion runs first
     * and the work then runs as usual.
     */
    public void whilePaused(Runnable work) {
        BusyScript running = script;
        if (running == null) {
            work.run();
            return;
        }
        if (!running.pause()) {
            running.complete();
            whilePaused(work); // the caller's pipelined input may have started another long script
            return;
        }
        try {
            work.run();
        } finally {
            running.resume();
        }
        running.endIfKilled();
    }

    /**
     * The busy script ended (on the engine thread): the deferred accounting of its command, its error reply if
     * it failed, then what follows a command (CLIENT REPLY modes, blocked clients, the caller's pipelined input).
     */
    public void exit(BusyScript ended) {
        if (script != ended) {
            return;
        }
        script = null;
        ClientConnection caller = ended.caller();
        caller.blocked(false);
        RedisError failure = ended.failure();
        Stats stats = engine.stats();
        if (failure != null) {
            stats.failedCalls++;
            if (!failure.counted()) {
                stats.countError(failure.getMessage());
            }
            caller.reply().error(failure.getMessage());
        }
        stats.commandsProcessed++;
        stats.countCall(commandName, (System.nanoTime() - startedNanos) / 1000, failure != null);
        caller.touch(engine.time().millis(), commandName);
        engine.propagation().exitCall(); // the script's effects go to the replicas now, wrapped as one unit
        caller.writeOffset(engine.replication().offset());
        engine.resumeAfterScript(caller);
    }
}
