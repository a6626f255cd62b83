package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/** A protected call counted as Lua 5.1 counts nested C calls: 200 deep it returns "C stack overflow". */
final class CLevel extends VarArgFunction {
    private final Globals g;
    private final LuaValue function;

    private CLevel(Globals g, String name, LuaValue function) {
        this.g = g;
        this.function = function;
        this.name = name;
    }

    static LuaValue counted(Globals g, String name, LuaValue function) {
        return new CLevel(g, name, function);
    }

    @Override
    public Varargs invoke(Varargs args) {
        ScriptHook hook = ScriptHook.of(g);
        if (!hook.enterC()) {
            return LuaValue.varargsOf(LuaValue.FALSE, LuaValue.valueOf(Coroutines.C_STACK_OVERFLOW));
        }
        try {
            return function.invoke(args);
        } finally {
            hook.leaveC();
        }
    }
}
