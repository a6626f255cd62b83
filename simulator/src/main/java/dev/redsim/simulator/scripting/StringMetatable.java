package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TwoArgFunction;

/**
 * The metatable of every Lua string (s:upper()). luaj holds it in one static field for the whole JVM, so it can
 * be neither per Lua state nor writable: a script that changed it would change every later script of every
 * simulator in the JVM. This one is immutable and set once; its __index looks up the method in the string library
 * of the script running on the calling thread ({@link RunningHook}). Scripts never see it: their getmetatable('')
 * answers their own state's sealed metatable, whose __index is their string table, as in Redis.
 */
final class StringMetatable {
    /** For luaj code that runs outside any script (none of ours does): the plain luaj library, sealed. */
    private static final LuaTable FALLBACK = fallbackLibrary();
    private static final LuaTable SHARED = ReadOnlyTables.of(LuaValue.INDEX, new TwoArgFunction() {
        @Override
        public LuaValue call(LuaValue string, LuaValue name) {
            ScriptHook hook = RunningHook.orElse(null);
            LuaTable library = hook != null ? hook.stringLibrary() : FALLBACK;
            return library.rawget(name);
        }
    });

    private StringMetatable() {
    }

    /** Idempotent: every simulator installs the same immutable table. */
    static void install() {
        if (LuaString.s_metatable != SHARED) {
            LuaString.s_metatable = SHARED;
        }
    }

    private static LuaTable fallbackLibrary() {
        LuaTable env = new LuaTable();
        LuaTable pkg = new LuaTable();
        pkg.rawset("loaded", new LuaTable());
        env.rawset("package", pkg);
        new StringLib().call(LuaValue.valueOf("string"), env);
        return new ReadOnlyTables.ReadOnlyTable((LuaTable) env.rawget("string"));
    }
}
