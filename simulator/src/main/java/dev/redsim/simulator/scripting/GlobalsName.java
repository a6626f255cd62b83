package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;

/**
 * The name luaj's compiler gives the hidden upvalue that holds a chunk's globals. Lua 5.2 calls it _ENV and lets
 * code name it, so "local _ENV = {}" would hide every global and "_ENV = t" would swap a cached script's globals
 * for all its later runs. Lua 5.1, which Redis runs, has no such name: _ENV is an ordinary global there (absent,
 * so reading it fails and assigning it is refused). luaj reads the name from one static field for the whole JVM;
 * it is set once to a name no Lua source can spell, so _ENV stays an ordinary name in every script.
 */
final class GlobalsName {
    /** Not an identifier (it holds a space), so no script can name the upvalue. */
    static final LuaString HIDDEN = LuaValue.valueOf("globals of the chunk");

    private GlobalsName() {
    }

    /** Idempotent: every simulator sets the same constant before it compiles anything. */
    static void install() {
        if (LuaValue.ENV != HIDDEN) {
            LuaValue.ENV = HIDDEN;
        }
    }

    /** Whether upvalue {@code index} of {@code p} is the chunk's globals. */
    static boolean isGlobals(org.luaj.vm2.Prototype p, int index) {
        return index >= 0 && index < p.upvalues.length && p.upvalues[index].name != null
                && HIDDEN.raweq(p.upvalues[index].name);
    }
}
