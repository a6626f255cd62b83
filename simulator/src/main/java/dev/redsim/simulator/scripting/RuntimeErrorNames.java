package dev.redsim.simulator.scripting;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites the error of a failed Lua operation (index, call, length, arithmetic, concatenation) in Lua 5.1's
 * words, naming the culprit when Lua would: "attempt to index local 't' (a nil value)", "attempt to call field
 * 'f' (a nil value)", "attempt to perform arithmetic on a table value". luaj says less ("attempt to index ?
 * (a nil value)", "attempt to call nil"); the failing instruction and the registers it read tell the rest.
 */
final class RuntimeErrorNames {
    /** luaj's position prefix, then the start of one of the operation errors. */
    private static final Pattern ERROR = Pattern.compile("^(@\\S+:\\d+ )?(?:attempt to "
            + "(index|call|get length of|perform arithmetic|concatenate)\\b.*|(index) expected, got \\w+)", Pattern.DOTALL);

    private RuntimeErrorNames() {
    }

    /**
     * The 5.1 message for {@code message}, raised at instruction {@code pc} of {@code p} running on
     * {@code stack}; null when the message is not an operation error of that instruction.
     */
    static String rewrite(String message, Prototype p, int pc, LuaValue[] stack) {
        Matcher m = ERROR.matcher(message);
        if (!m.matches() || pc < 0 || pc >= p.code.length) {
            return null;
        }
        String operation = m.group(2) != null ? m.group(2) : m.group(3); // luaj: "index expected, got nil" on stores
        String verb = operation.equals("perform arithmetic") ? "perform arithmetic on" : operation;
        Culprit culprit = culprit(verb, p, p.code[pc], stack);
        if (culprit == null) {
            return null;
        }
        VariableNames.Name name = culprit.named(p, pc);
        String position = m.group(1) == null ? "" : m.group(1);
        String type = culprit.value.typename();
        return position + "attempt to " + verb + " "
                + (name == null ? "a " + type + " value" : name.kind() + " '" + name.name() + "' (a " + type + " value)");
    }

    /** The operand an operation failed on: a register, an upvalue, or a constant (never named). */
    private record Culprit(LuaValue value, int register, String upvalue) {
        VariableNames.Name named(Prototype p, int pc) {
            if (upvalue != null) {
                return new VariableNames.Name("upvalue", upvalue);
            }
            return register < 0 ? null : VariableNames.of(p, pc, register);
        }
    }

    private static Culprit culprit(String verb, Prototype p, int i, LuaValue[] stack) {
        int op = Lua.GET_OPCODE(i);
        switch (verb) {
            case "index":
                if (op == Lua.OP_GETTABLE || op == Lua.OP_SELF) {
                    return register(stack, Lua.GETARG_B(i));
                }
                if (op == Lua.OP_SETTABLE) {
                    return register(stack, Lua.GETARG_A(i));
                }
                if (op == Lua.OP_GETTABUP || op == Lua.OP_SETTABUP) {
                    int index = op == Lua.OP_GETTABUP ? Lua.GETARG_B(i) : Lua.GETARG_A(i);
                    String name = VariableNames.upvalueName(p, index);
                    return name == null ? null : new Culprit(LuaValue.NIL, -1, name);
                }
                return null;
            case "call":
                return op == Lua.OP_CALL || op == Lua.OP_TAILCALL ? register(stack, Lua.GETARG_A(i)) : null;
            case "get length of":
                return op == Lua.OP_LEN ? register(stack, Lua.GETARG_B(i)) : null;
            case "perform arithmetic on":
                if (op == Lua.OP_UNM) {
                    return register(stack, Lua.GETARG_B(i));
                }
                if (op >= Lua.OP_ADD && op <= Lua.OP_POW) {
                    // Lua 5.1 blames the first operand that is not a number (or a string that reads as one)
                    Culprit first = operand(p, stack, Lua.GETARG_B(i));
                    return isArithmetic(first.value) ? operand(p, stack, Lua.GETARG_C(i)) : first;
                }
                return null;
            case "concatenate":
                return op == Lua.OP_CONCAT ? concatCulprit(stack, Lua.GETARG_B(i), Lua.GETARG_C(i)) : null;
            default:
                return null;
        }
    }

    /**
     * Lua concatenates from the right, pair by pair, and blames the left value of the first failing pair unless
     * it is a string or number; after a successful pair the right side is a string.
     */
    private static Culprit concatCulprit(LuaValue[] stack, int from, int to) {
        for (int right = to; right > from; right--) {
            LuaValue left = stack[right - 1];
            boolean leftOk = isConcatenable(left);
            boolean rightOk = right < to || isConcatenable(stack[right]);
            if (!leftOk || !rightOk) {
                return register(stack, leftOk ? right : right - 1);
            }
        }
        return null;
    }

    private static Culprit operand(Prototype p, LuaValue[] stack, int rk) {
        return Lua.ISK(rk) ? new Culprit(p.k[Lua.INDEXK(rk)], -1, null) : register(stack, rk);
    }

    private static Culprit register(LuaValue[] stack, int register) {
        if (register < 0 || register >= stack.length) {
            return null;
        }
        LuaValue value = stack[register] == null ? LuaValue.NIL : stack[register];
        return new Culprit(value, register, null);
    }

    private static boolean isConcatenable(LuaValue v) {
        return v.type() == LuaValue.TSTRING || v.type() == LuaValue.TNUMBER;
    }

    private static boolean isArithmetic(LuaValue v) {
        return v.type() == LuaValue.TNUMBER || (v.type() == LuaValue.TSTRING && !v.tonumber().isnil());
    }
}
