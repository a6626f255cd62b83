package dev.redsim.simulator.engine;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.server.ClientConnection;

/**
 * A script that ran past busy-reply-threshold, as busy mode handles it; implemented by the scripting layer above,
 * so the engine knows the script's lifecycle without knowing Lua.
 */
public interface BusyScript {
    /** The client waiting for the script's reply. */
    ClientConnection caller();

    /** The command that started the script (EVAL ..., FCALL ...). */
    byte[][] command();

    /** True for EVAL/EVALSHA (SCRIPT KILL), false for FCALL (FUNCTION KILL). */
    boolean eval();

    /** System.nanoTime() when the script started. */
    long startNanos();

    /** Whether the script ran a write command (it can then no longer be killed). */
    boolean wrote();

    /** The failure the script ended with, or null. */
    RedisError failure();

    /** Parks the script at its next checkpoint; false when it ended meanwhile. */
    boolean pause();

    void resume();

    /** Stops the script at its next checkpoint. */
    void kill();

    /** Ends a killed script's busy state at once. */
    void endIfKilled();

    /** Runs the script's late end now, once. */
    void complete();
}
