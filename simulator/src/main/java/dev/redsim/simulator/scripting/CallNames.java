package dev.redsim.simulator.scripting;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

/**
 * Finds the name a call instruction used for the function it calls, as Lua's getobjname does: a local's
 * name, else what loaded the register (a global, a table field, a method key, an upvalue). luaj compiles
 * Lua 5.2 code, where globals are fields of the _ENV upvalue.
 */
final class CallNames {
    private CallNames() {
    }

    /** The call site of the function in register {@code reg} called at {@code pc}, or null when unnamed. */
    static CallSite of(Prototype p, int pc, int reg) {
        LuaString local = p.getlocalname(reg + 1, pc);
        if (local != null) {
            return new CallSite(local.tojstring(), false, true, null);
        }
        int setter = lastSetter(p, pc, reg);
        if (setter < 0) {
            return null;
        }
        int i = p.code[setter];
        switch (Lua.GET_OPCODE(i)) {
            case Lua.OP_MOVE: {
                int b = Lua.GETARG_B(i);
                return b < Lua.GETARG_A(i) ? of(p, setter, b) : null;
            }
            case Lua.OP_GETTABUP:
            case Lua.OP_GETTABLE:
                return named(constantName(p, Lua.GETARG_C(i)), false);
            case Lua.OP_SELF:
                return named(constantName(p, Lua.GETARG_C(i)), true);
            case Lua.OP_GETUPVAL: {
                int b = Lua.GETARG_B(i);
                LuaString name = b < p.upvalues.length ? p.upvalues[b].name : null;
                return named(name == null ? null : name.tojstring(), false);
            }
            default:
                return null;
        }
    }

    private static CallSite named(String name, boolean method) {
        return name == null ? null : new CallSite(name, method, true, null);
    }

    /** The instruction before {@code pc} that last wrote {@code reg} (straight-line code is what matters here). */
    private static int lastSetter(Prototype p, int pc, int reg) {
        for (int at = pc - 1; at >= 0; at--) {
            int i = p.code[at];
            int op = Lua.GET_OPCODE(i);
            int a = Lua.GETARG_A(i);
            if (op == Lua.OP_JMP || op == Lua.OP_TEST || op == Lua.OP_EQ || op == Lua.OP_LT || op == Lua.OP_LE
                    || op == Lua.OP_SETTABLE || op == Lua.OP_SETTABUP || op == Lua.OP_SETUPVAL
                    || op == Lua.OP_SETLIST || op == Lua.OP_FORLOOP || op == Lua.OP_TFORLOOP) {
                continue;
            }
            if (a == reg || (op == Lua.OP_SELF && a + 1 == reg)) {
                return op == Lua.OP_SELF && a + 1 == reg ? -1 : at;
            }
            if (op == Lua.OP_LOADNIL && reg >= a && reg <= a + Lua.GETARG_B(i)) {
                return -1;
            }
            if ((op == Lua.OP_CALL || op == Lua.OP_VARARG) && reg >= a) {
                return -1;
            }
        }
        return -1;
    }

    private static String constantName(Prototype p, int rk) {
        if (!Lua.ISK(rk)) {
            return null;
        }
        LuaValue k = p.k[Lua.INDEXK(rk)];
        return k.type() == LuaValue.TSTRING ? k.tojstring() : null;
    }
}
