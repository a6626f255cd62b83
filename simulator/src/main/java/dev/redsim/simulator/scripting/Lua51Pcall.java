package dev.redsim.simulator.scripting;

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

    private final LuaValue pcall;

    Lua51Pcall(LuaValue pcall) {
        this.pcall = pcall;
        this.name = "pcall";
    }

    @Override
    public Varargs invoke(Varargs args) {
        Varargs result = pcall.invoke(args);
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
