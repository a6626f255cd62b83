package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaValue;

/**
 * A compiled script of the EVAL cache: its SHA1, its source, its shebang flags, the Lua function, and whether it
 * provably ends soon ({@link ShortScripts}: it then runs on the engine thread).
 */
record CachedScript(String sha, byte[] body, ScriptFlags flags, LuaValue function, boolean provablyShort) {
    CachedScript(String sha, byte[] body, ScriptFlags flags, LuaValue function) {
        this(sha, body, flags, function, ShortScripts.provablyShort(function));
    }
}
