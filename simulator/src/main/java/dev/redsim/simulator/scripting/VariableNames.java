package dev.redsim.simulator.scripting;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

/**
 * Names a register of compiled Lua code the way Lua's error messages do ("local 't'", "global 'f'",
 * "field 'x'", "field '?'", "upvalue 'u'", "method 'm'"), by reading the function's bytecode back from the
 * failing instruction: a live local variable names itself, otherwise the instruction that last set the register
 * tells where the value came from. luaj compiles Lua 5.2 bytecode; the names are those Lua 5.1 (Redis) gives.
 */
final class VariableNames {
    private VariableNames() {
    }

    /** A kind ("local", "field", ...) and a name, or null when Lua would not name the value. */
    record Name(String kind, String name) {
    }

    static Name of(Prototype p, int pc, int register) {
        LuaString local = p.getlocalname(register + 1, pc);
        if (local != null) {
            return new Name("local", local.tojstring());
        }
        int setter = lastSetter(p, pc, register);
        if (setter < 0) {
            return null;
        }
        int i = p.code[setter];
        int op = Lua.GET_OPCODE(i);
        if (op == Lua.OP_MOVE) {
            int from = Lua.GETARG_B(i);
            return from < Lua.GETARG_A(i) ? of(p, setter, from) : null;
        }
        if (op == Lua.OP_GETTABUP) {
            boolean global = "_ENV".equals(upvalueName(p, Lua.GETARG_B(i)));
            return new Name(global ? "global" : "field", constantName(p, Lua.GETARG_C(i)));
        }
        if (op == Lua.OP_GETTABLE) {
            return new Name("field", constantName(p, Lua.GETARG_C(i)));
        }
        if (op == Lua.OP_GETUPVAL) {
            String name = upvalueName(p, Lua.GETARG_B(i));
            return name == null ? null : new Name("upvalue", name);
        }
        if (op == Lua.OP_SELF) {
            return new Name("method", constantName(p, Lua.GETARG_C(i)));
        }
        return null;
    }

    static String upvalueName(Prototype p, int index) {
        if (p.upvalues == null || index >= p.upvalues.length || p.upvalues[index].name == null) {
            return null;
        }
        return p.upvalues[index].name.tojstring();
    }

    /** Lua 5.1 names a table key only when it is a string constant of the instruction; "?" otherwise. */
    private static String constantName(Prototype p, int rk) {
        if (Lua.ISK(rk)) {
            LuaValue key = p.k[Lua.INDEXK(rk)];
            if (key.type() == LuaValue.TSTRING) {
                return key.tojstring();
            }
        }
        return "?";
    }

    /**
     * The instruction before {@code lastPc} that last wrote {@code register}, or -1 when none did or when the
     * write sits in code a forward jump may skip (the value's origin is then unknown, as Lua decides).
     */
    private static int lastSetter(Prototype p, int lastPc, int register) {
        int setter = -1;
        int jumpTarget = 0;
        for (int pc = 0; pc < lastPc; pc++) {
            int i = p.code[pc];
            int op = Lua.GET_OPCODE(i);
            int a = Lua.GETARG_A(i);
            boolean writes;
            if (op == Lua.OP_LOADNIL) {
                writes = a <= register && register <= a + Lua.GETARG_B(i);
            } else if (op == Lua.OP_TFORCALL) {
                writes = register >= a + 2;
            } else if (op == Lua.OP_CALL || op == Lua.OP_TAILCALL) {
                writes = register >= a;
            } else if (op == Lua.OP_JMP) {
                int dest = pc + 1 + Lua.GETARG_sBx(i);
                if (pc < dest && dest <= lastPc && dest > jumpTarget) {
                    jumpTarget = dest;
                }
                writes = false;
            } else {
                writes = writesA(op) && register == a;
            }
            if (writes) {
                setter = pc < jumpTarget ? -1 : pc;
            }
        }
        return setter;
    }

    private static boolean writesA(int op) {
        switch (op) {
            case Lua.OP_SETTABUP:
            case Lua.OP_SETUPVAL:
            case Lua.OP_SETTABLE:
            case Lua.OP_EQ:
            case Lua.OP_LT:
            case Lua.OP_LE:
            case Lua.OP_TEST:
            case Lua.OP_RETURN:
            case Lua.OP_SETLIST:
            case Lua.OP_EXTRAARG:
                return false;
            default:
                return true;
        }
    }
}
