package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaError;

/**
 * An error the Lua 5.1 VM itself raises while a C library function runs ("table index is nil" from
 * lua_settable): luaG_runerror adds a position only for Lua code, so the message stays bare, unlike
 * luaL_error's, which names the calling script line.
 */
public final class VmError extends LuaError {
    private final String text;

    VmError(String text) {
        super(text);
        this.text = text;
    }

    @Override
    public String getMessage() {
        return text;
    }
}
