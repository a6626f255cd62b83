package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaTable;

/** Placeholder for the Lua 'bit' library (written on branch lua-libs, replaced at merge). */
public final class BitLib {
    private BitLib() {
    }

    public static LuaTable create() {
        return new LuaTable();
    }
}
