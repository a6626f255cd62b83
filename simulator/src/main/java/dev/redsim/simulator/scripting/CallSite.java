package dev.redsim.simulator.scripting;

/**
 * How Lua 5.1 names a function in an argument error (lua_getinfo "n"): the name the calling code used for it
 * ("rep" for string.rep or s:rep, "f" for a local f), whether it was a method call (s:rep counts arguments
 * after self), and whether the caller was Lua code (a C caller such as pcall gives name "?" and no position).
 */
record CallSite(String name, boolean method, boolean fromLua, String where) {
    /** Called from C code (pcall, gsub's replacement, sort's comparator...): "bad argument #1 to '?'". */
    static final CallSite FROM_C = new CallSite(null, false, false, null);

    /** The same call made by "return f(...)" at {@code where} ("user_script:2"), a frame luaj has left. */
    CallSite at(String position) {
        return new CallSite(name, method, fromLua, position);
    }
}
