package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaTable;

/** Placeholder for the Lua 'struct' library (written on branch lua-libs, replaced at merge). */
public final class StructLib {
    private StructLib() {
    }

    public static LuaTable create() {
        return new LuaTable();
    }
}
