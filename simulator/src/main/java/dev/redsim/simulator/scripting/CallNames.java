package dev.redsim.simulator.scripting;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

/**
 * Finds the name a call instruction used for the function it calls, as Lua's getobjname does: a local's
 * name, else what loaded the register (a global, a table field, a method key, an upvalue). luaj compiles
 * Lua 5.2 code, where globals are fields of the chunk's globals upvalue ({@link GlobalsName}).
 */
final class CallNames {
    private CallNames() {
    }

    /** What Lua 5.1 calls a register's value: its kind ("local", "global", "field", "method", "upvalue") and name. */
    record Named(String kind, String name) {
    }

    /** The call site of the function in register {@code reg} called at {@code pc}, or null when unnamed. */
    static CallSite of(Prototype p, int pc, int reg) {
        Named named = named(p, pc, reg);
        return named == null || named.name().equals("?") ? null
                : new CallSite(named.name(), named.kind().equals("method"), true, null);
    }

    /** How Lua 5.1's getobjname names register {@code reg} at {@code pc}, or null when it has no name. */
    static Named named(Prototype p, int pc, int reg) {
        LuaString local = p.getlocalname(reg + 1, pc);
        if (local != null) {
            return new Named("local", local.tojstring());
        }
        int setter = lastSetter(p, pc, reg);
        if (setter < 0) {
            return null;
        }
        int i = p.code[setter];
        switch (Lua.GET_OPCODE(i)) {
            case Lua.OP_MOVE: {
                int b = Lua.GETARG_B(i);
                return b < Lua.GETARG_A(i) ? named(p, setter, b) : null;
            }
            case Lua.OP_GETTABUP: {
                String key = constantName(p, Lua.GETARG_C(i));
                boolean env = GlobalsName.isGlobals(p, Lua.GETARG_B(i));
                return key == null ? null : new Named(env ? "global" : "field", key);
            }
            case Lua.OP_GETTABLE: {
                String key = constantName(p, Lua.GETARG_C(i));
                return new Named("field", key == null ? "?" : key);
            }
            case Lua.OP_SELF: {
                String key = constantName(p, Lua.GETARG_C(i));
                return new Named("method", key == null ? "?" : key);
            }
            case Lua.OP_GETUPVAL: {
                String name = upvalueName(p, Lua.GETARG_B(i));
                return name == null ? null : new Named("upvalue", name);
            }
            default:
                return null;
        }
    }

    static String upvalueName(Prototype p, int index) {
        LuaString name = index < p.upvalues.length ? p.upvalues[index].name : null;
        return name == null ? null : name.tojstring();
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
