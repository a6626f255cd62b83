package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaTable;

/** Placeholder for the Lua 'cjson' library (written on branch lua-libs, replaced at merge). */
public final class CjsonLib {
    private CjsonLib() {
    }

    public static LuaTable create() {
        return new LuaTable();
    }
}
