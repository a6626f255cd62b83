package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaTable;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/** A library function written as a lambda; its name is the one Lua 5.1 shows in argument errors. */
final class NamedFunction extends VarArgFunction {
    interface Body {
        Varargs call(Varargs args);
    }

    private final Body body;

    private NamedFunction(String name, Body body) {
        this.name = name;
        this.body = body;
    }

    @Override
    public Varargs invoke(Varargs args) {
        return body.call(args);
    }

    /** Sets table[name] to a function running body. */
    static void register(LuaTable table, String name, Body body) {
        table.set(name, new NamedFunction(name, body));
    }
}
