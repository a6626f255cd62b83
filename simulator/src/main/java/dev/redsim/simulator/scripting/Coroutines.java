package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Coroutines bounded as Redis's Lua bounds them. luaj runs every coroutine on a Java thread of its own, so without
 * bounds a self-resuming script made tens of thousands of threads. Lua 5.1 counts nested C calls (resume among
 * them) and refuses a resume 200 levels deep with "C stack overflow" ({@link ScriptHook#enterResume}); the threads
 * of a script's coroutines are released when the script ends ({@link ScriptHook#end}), where luaj would wait for
 * the garbage collector.
 */
final class Coroutines {
    private Coroutines() {
    }

    static void install(Globals g, LuaTable coroutine) {
        LuaValue create = coroutine.rawget("create");
        LuaValue resume = coroutine.rawget("resume");
        LuaValue wrap = coroutine.rawget("wrap");
        coroutine.rawset("create", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue body) {
                return create.call(tracked(g, body));
            }
        });
        coroutine.rawset("resume", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                ScriptHook hook = ScriptHook.of(g);
                if (!hook.enterResume()) {
                    return LuaValue.varargsOf(LuaValue.FALSE, LuaValue.valueOf(C_STACK_OVERFLOW));
                }
                try {
                    return resume.invoke(args);
                } finally {
                    hook.leaveC();
                }
            }
        });
        coroutine.rawset("wrap", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue body) {
                LuaValue wrapped = wrap.call(tracked(g, body));
                return new VarArgFunction() {
                    @Override
                    public Varargs invoke(Varargs args) {
                        ScriptHook hook = ScriptHook.of(g);
                        if (!hook.enterResume()) {
                            throw atCaller(hook, this, C_STACK_OVERFLOW);
                        }
                        try {
                            return wrapped.invoke(args);
                        } catch (ScriptError e) {
                            // Lua 5.1's wrap re-raises a string error with the caller's position in front
                            throw e.redisError() ? e : atCaller(hook, this, e.getMessage());
                        } catch (LuaError e) {
                            LuaValue m = e.getMessageObject();
                            throw m != null && m.isstring() ? atCaller(hook, this, m.tojstring()) : e;
                        } finally {
                            hook.leaveC();
                        }
                    }
                };
            }
        });
    }

    /**
     * An error at the line that called {@code function} (luaL_where(L, 1)), also when "return co()" called it: luaj
     * has then left the calling frame, so the position comes from the hook's record of it.
     */
    private static ScriptError atCaller(ScriptHook hook, LuaValue function, String text) {
        String where = null;
        try {
            where = hook.callSite(function).where();
        } catch (RuntimeException e) {
            // frames that do not describe this call: let luaj's frame place it
        }
        return where != null ? ScriptError.at(where, text) : ScriptError.positioned(text);
    }

    /** The coroutine's body, telling the hook which thread luaj runs it on when it first runs. */
    private static LuaValue tracked(Globals g, LuaValue body) {
        body.checkfunction();
        ScriptHook.of(g).beforeCoroutine(); // on the engine thread the script moves to the script thread first
        return new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                ScriptHook.of(g).coroutineStarted(Thread.currentThread());
                return body.invoke(args);
            }
        };
    }

    static final String C_STACK_OVERFLOW = "C stack overflow";
}
