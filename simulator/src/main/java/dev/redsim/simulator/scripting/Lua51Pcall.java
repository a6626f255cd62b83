package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * pcall as Redis 7.0 gives it to scripts: when the caught error is a table with an "err" field (an error
 * table from error({err=...}) or a failed redis.call), pcall returns that field rather than the table.
 * Everything else is luaj's pcall unchanged.
 */
final class Lua51Pcall extends VarArgFunction {
    private static final LuaValue ERR = LuaValue.valueOf("err");

    private final Globals g;
    private final LuaValue pcall;

    Lua51Pcall(Globals g, LuaValue pcall) {
        this.g = g;
        this.pcall = pcall;
        this.name = "pcall";
    }

    @Override
    public Varargs invoke(Varargs args) {
        ScriptHook hook = ScriptHook.of(g);
        if (!hook.enterC()) { // raised inside the protected call, so this pcall itself returns it
            return LuaValue.varargsOf(LuaValue.FALSE, LuaValue.valueOf(Coroutines.C_STACK_OVERFLOW));
        }
        Varargs result;
        try {
            result = pcall.invoke(args);
        } finally {
            hook.leaveC();
        }
        if (result.arg1().toboolean()) {
            return result;
        }
        LuaValue error = result.arg(2);
        if (error.istable()) {
            LuaValue err = error.get(ERR);
            if (!err.isnil()) {
                return LuaValue.varargsOf(LuaValue.FALSE, err);
            }
        }
        return result;
    }
}
