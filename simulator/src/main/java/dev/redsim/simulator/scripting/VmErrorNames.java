package dev.redsim.simulator.scripting;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

/**
 * Lua 5.1's texts for the VM's type errors, naming the culprit when the code shows where it came from
 * ("attempt to index local 't' (a nil value)", "attempt to call field 'nope' (a nil value)"), else
 * "attempt to call a nil value". luaj words these its own way and never names variables; this reads the
 * failing instruction, the frame's registers and the compiled code (as Lua's getobjname does) instead.
 */
final class VmErrorNames {
    private VmErrorNames() {
    }

    /** Lua 5.1's text for luaj's VM error {@code message} raised at {@code pc}, or null if it is not one. */
    static String describe(LuaClosure closure, LuaValue[] stack, int pc, String message) {
        Prototype p = closure.p;
        int i = p.code[pc];
        int op = Lua.GET_OPCODE(i);
        int a = Lua.GETARG_A(i);
        int b = Lua.GETARG_B(i);
        int c = Lua.GETARG_C(i);
        switch (op) {
            case Lua.OP_CALL, Lua.OP_TAILCALL:
                return message.startsWith("attempt to call") ? register(p, stack, pc, a, "call") : null;
            case Lua.OP_GETTABLE, Lua.OP_SELF:
                return indexError(message) ? register(p, stack, pc, b, "index") : null;
            case Lua.OP_SETTABLE:
                return indexError(message) ? register(p, stack, pc, a, "index") : null;
            case Lua.OP_GETTABUP:
                return indexError(message) ? upvalue(closure, b, "index") : null;
            case Lua.OP_SETTABUP:
                return indexError(message) ? upvalue(closure, a, "index") : null;
            case Lua.OP_ADD, Lua.OP_SUB, Lua.OP_MUL, Lua.OP_DIV, Lua.OP_MOD, Lua.OP_POW: {
                if (!message.startsWith("attempt to perform arithmetic")) {
                    return null;
                }
                // Lua 5.1 blames the first operand that is not a number (nor a numeric string)
                int culprit = isNumber(rk(p, stack, b)) ? c : b;
                if (Lua.ISK(culprit)) {
                    return plain("perform arithmetic on", rk(p, stack, culprit));
                }
                return register(p, stack, pc, culprit, "perform arithmetic on");
            }
            case Lua.OP_UNM:
                return message.startsWith("attempt to perform arithmetic")
                        ? register(p, stack, pc, b, "perform arithmetic on") : null;
            case Lua.OP_LEN:
                return message.startsWith("attempt to get length") ? register(p, stack, pc, b, "get length of") : null;
            case Lua.OP_CONCAT:
                return message.startsWith("attempt to concatenate") ? concat(p, stack, pc, b, c) : null;
            default:
                return null;
        }
    }

    private static boolean indexError(String message) {
        return message.startsWith("attempt to index") || message.startsWith("index expected");
    }

    /**
     * Lua 5.1 joins the operands from the right; the first pair that cannot be joined names its left operand,
     * or its right one when the left is a string or number. The CONCAT may sit in the code ConcatNumbers
     * appended, whose registers were filled by moves: names come from the original place of the CONCAT.
     */
    private static String concat(Prototype p, LuaValue[] stack, int pc, int b, int c) {
        int culprit = -1;
        for (int x = c - 1; x >= b; x--) {
            boolean leftOk = isText(stack[x]);
            boolean rightOk = x + 1 < c || isText(stack[c]);
            if (!leftOk || !rightOk) {
                culprit = leftOk ? x + 1 : x;
                break;
            }
        }
        if (culprit < 0) {
            return null;
        }
        int origin = ConcatNumbers.originalPc(p, pc);
        return register(p, stack, origin, culprit, "concatenate");
    }

    private static String register(Prototype p, LuaValue[] stack, int pc, int reg, String verb) {
        LuaValue value = reg < stack.length ? stack[reg] : LuaValue.NIL;
        CallNames.Named named = CallNames.named(p, pc, reg);
        return named == null ? plain(verb, value) : named(verb, named, value);
    }

    private static String upvalue(LuaClosure closure, int index, String verb) {
        String name = CallNames.upvalueName(closure.p, index);
        LuaValue value = index < closure.upValues.length ? closure.upValues[index].getValue() : LuaValue.NIL;
        return name == null ? plain(verb, value) : named(verb, new CallNames.Named("upvalue", name), value);
    }

    private static String named(String verb, CallNames.Named named, LuaValue value) {
        return "attempt to " + verb + " " + named.kind() + " '" + named.name() + "' (a " + value.typename()
                + " value)";
    }

    private static String plain(String verb, LuaValue value) {
        return "attempt to " + verb + " a " + value.typename() + " value";
    }

    private static LuaValue rk(Prototype p, LuaValue[] stack, int rk) {
        return Lua.ISK(rk) ? p.k[Lua.INDEXK(rk)] : rk < stack.length ? stack[rk] : LuaValue.NIL;
    }

    private static boolean isNumber(LuaValue v) {
        return v.type() == LuaValue.TNUMBER || (v.type() == LuaValue.TSTRING && v.tonumber().isnumber());
    }

    private static boolean isText(LuaValue v) {
        return v.type() == LuaValue.TSTRING || v.type() == LuaValue.TNUMBER;
    }
}
