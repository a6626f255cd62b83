package dev.redsim.simulator.scripting;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

/**
 * luaj runs "return f(...)" after the calling function has returned, so an error raised by f carries no
 * script position. Redis reports the line of that return; for the script's main chunk it is the line of its
 * last tail call, which this finds from the compiled code.
 */
final class TailCalls {
    private TailCalls() {
    }

    static String lastPosition(LuaValue function, String chunk) {
        if (!(function instanceof LuaClosure closure)) {
            return null;
        }
        Prototype p = closure.p;
        for (int pc = p.code.length - 1; pc >= 0; pc--) {
            if (Lua.GET_OPCODE(p.code[pc]) == Lua.OP_TAILCALL && p.lineinfo != null && pc < p.lineinfo.length) {
                return chunk + ":" + p.lineinfo[pc];
            }
        }
        return null;
    }
}
