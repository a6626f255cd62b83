package dev.redsim.simulator.scripting;

import dev.redsim.simulator.scripting.lib.BitLib;
import dev.redsim.simulator.scripting.lib.CjsonLib;
import dev.redsim.simulator.scripting.lib.CmsgpackLib;
import dev.redsim.simulator.scripting.lib.StructLib;
import org.luaj.vm2.LuaTable;

/** The one place that installs the libraries Redis bundles with its Lua (cjson, cmsgpack, struct, bit). */
final class ScriptLibraries {
    private ScriptLibraries() {
    }

    static void install(LuaTable globals) {
        globals.rawset("cjson", CjsonLib.create());
        globals.rawset("cmsgpack", CmsgpackLib.create());
        globals.rawset("struct", StructLib.create());
        globals.rawset("bit", BitLib.create());
    }
}
