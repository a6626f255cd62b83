package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.DebugLib;
import org.luaj.vm2.lib.OneArgFunction;

/**
 * The instruction hook of a Lua state (Redis's count hook): every {@link #CHECK_EVERY} instructions it lets the
 * running script be paused or killed ({@link ScriptExecution#checkpoint}), and it counts call depth to raise
 * Lua 5.1's "stack overflow" at Lua's limit rather than letting the JVM stack overflow.
 *
 * <p>luaj calls these methods only when a DebugLib is installed in {@code globals.debuglib}. Installing it (without
 * the script-visible debug table) also makes luaj add a traceback to error messages unless the running Lua thread
 * has an error function; an identity error function keeps the messages exactly as they were without the hook.
 */
final class ScriptHook extends DebugLib {
    private static final int CHECK_EVERY = 1000;
    /** Lua 5.1's LUAI_MAXCALLS: deeper calls fail with "stack overflow". */
    private static final int MAX_DEPTH = 20_000;

    private final ScriptRunner runner;
    private int countdown = CHECK_EVERY;
    private int depth;
    private ScriptExecution counted; // the script depth counts frames of; a new script starts from zero

    private ScriptHook(ScriptRunner runner) {
        this.runner = runner;
    }

    static void install(Globals globals, ScriptRunner runner) {
        globals.debuglib = new ScriptHook(runner);
        globals.running.errorfunc = new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue message) {
                return message;
            }
        };
    }

    @Override
    public void onCall(LuaFunction f) {
        depth++;
    }

    @Override
    public void onCall(LuaClosure c, Varargs varargs, LuaValue[] stack) {
        ScriptExecution execution = runner.current();
        if (execution != counted) {
            counted = execution;
            depth = 0;
        }
        if (++depth > MAX_DEPTH) {
            depth--; // luaj calls onReturn only for calls that started
            throw ScriptError.positioned("stack overflow");
        }
    }

    @Override
    public void onReturn() {
        depth--;
    }

    @Override
    public void onInstruction(int pc, Varargs v, int top) {
        if (--countdown > 0) {
            return;
        }
        ScriptExecution execution = runner.current();
        countdown = execution != null && execution.killed() ? 1 : CHECK_EVERY; // once killed, no pcall can go on
        if (execution != null) {
            execution.checkpoint();
        }
    }

    @Override
    public String traceback(int level) {
        return "";
    }
}
