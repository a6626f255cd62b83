package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaValue;

/** A compiled script of the EVAL cache: its SHA1, its source, its shebang flags and the Lua function. */
record CachedScript(String sha, byte[] body, ScriptFlags flags, LuaValue function) {
}
