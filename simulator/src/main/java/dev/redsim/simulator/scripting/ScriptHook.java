package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaError;
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
    private final LuaFrames frames = new LuaFrames();

    private ScriptHook(ScriptRunner runner) {
        this.runner = runner;
    }

    static void install(Globals globals, ScriptRunner runner) {
        ScriptHook hook = new ScriptHook(runner);
        globals.debuglib = hook;
        globals.running.errorfunc = new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue message) {
                return hook.withCulpritNamed(message);
            }
        };
    }

    @Override
    public void onCall(LuaFunction f) {
        depth++;
        frames.push(null, null); // pcall / xpcall: luaj pairs them with onReturn as well
    }

    @Override
    public void onCall(LuaClosure c, Varargs varargs, LuaValue[] stack) {
        ScriptExecution execution = runner.current();
        if (execution != counted) {
            counted = execution;
            depth = 0;
            frames.clear();
        }
        if (++depth > MAX_DEPTH) {
            depth--; // luaj calls onReturn only for calls that started
            throw ScriptError.positioned("stack overflow");
        }
        frames.push(c, stack);
    }

    @Override
    public void onReturn() {
        depth--;
        frames.pop();
    }

    /**
     * The error function luaj calls as an error leaves the Lua function it was raised in (still the top frame):
     * names the culprit of a failed operation as Lua 5.1 does; any other message stays as it is.
     */
    private LuaValue withCulpritNamed(LuaValue message) {
        if (message.type() != LuaValue.TSTRING) {
            return message;
        }
        String text = message.tojstring();
        LuaClosure closure = frames.topClosure();
        if (closure != null) {
            String named = RuntimeErrorNames.rewrite(text, closure.p, frames.topPc(), frames.topStack());
            text = named == null ? text : named;
        }
        // luaj writes the position as "@user_script:1 message", Lua as "user_script:1: message"; pcall sees this
        return LuaValue.valueOf(LuaPositions.luaStyle(text));
    }

    @Override
    public void onInstruction(int pc, Varargs v, int top) {
        frames.pc(pc);
        int[] code = frames.topCode();
        if (code != null && Lua.GET_OPCODE(code[pc]) == Lua.OP_TAILCALL) {
            failUncallableTailCall(code[pc]);
        }
        if (--countdown > 0) {
            return;
        }
        ScriptExecution execution = runner.current();
        countdown = execution != null && execution.killed() ? 1 : CHECK_EVERY; // once killed, no pcall can go on
        if (execution != null) {
            execution.checkpoint();
        }
    }

    /**
     * luaj makes "return f(...)" after its function has returned, so calling a non-function there fails where
     * no line and no variable is known any more. Lua fails at the return itself: raise the same error here,
     * still inside the function, so it gets its position and its culprit's name.
     */
    private void failUncallableTailCall(int instruction) {
        LuaValue callee = frames.topStack()[Lua.GETARG_A(instruction)];
        if (callee != null && !callee.isfunction() && callee.metatag(LuaValue.CALL).isnil()) {
            throw new LuaError("attempt to call " + callee.typename());
        }
    }

    @Override
    public String traceback(int level) {
        return "";
    }
}
