package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaTable;

/** Placeholder for the Lua 'cmsgpack' library (written on branch lua-libs, replaced at merge). */
public final class CmsgpackLib {
    private CmsgpackLib() {
    }

    public static LuaTable create() {
        return new LuaTable();
    }
}
