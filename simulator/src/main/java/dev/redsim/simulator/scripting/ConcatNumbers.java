package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaInteger;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

import java.util.Arrays;

/**
 * Makes {@code ..} print numbers as Lua 5.1 does ("%.14g": 1e+15, 0.33333333333333, inf), where luaj prints
 * fractions through a Java float and whole numbers with all their digits. luaj's number-to-string conversion
 * cannot be replaced, so every compiled CONCAT is redirected to a few appended instructions that first pass
 * its operands through {@link #TEXT}, then concatenate and jump back. Jump offsets elsewhere stay untouched
 * (the CONCAT becomes a JMP of the same size); the appended code carries the CONCAT's line for error positions.
 */
final class ConcatNumbers {
    /** Converts the operands of one concatenation when all are strings or numbers (else luaj's rules apply). */
    private static final VarArgFunction TEXT = new VarArgFunction() {
        @Override
        public Varargs invoke(Varargs args) {
            int n = args.narg();
            boolean needed = false;
            for (int i = 1; i <= n; i++) {
                LuaValue v = args.arg(i);
                if (v.type() == LuaValue.TNUMBER) {
                    needed |= !(v instanceof LuaInteger);
                } else if (v.type() != LuaValue.TSTRING) {
                    return args; // a metamethod or an error: Lua 5.1 hands it the values as they are
                }
            }
            if (!needed) {
                return args;
            }
            LuaValue[] out = new LuaValue[n];
            for (int i = 1; i <= n; i++) {
                LuaValue v = args.arg(i);
                out[i - 1] = v.type() == LuaValue.TNUMBER && !(v instanceof LuaInteger)
                        ? LuaString.valueOf(LuaNumbers.toLuaString(v.todouble())) : v;
            }
            return LuaValue.varargsOf(out);
        }
    };

    private ConcatNumbers() {
    }

    /** Compiles with luaj's compiler, then redirects the concatenations of every function compiled. */
    static void install(Globals g) {
        Globals.Compiler luac = g.compiler;
        g.compiler = (stream, chunkName) -> rewrite(luac.compile(stream, chunkName));
    }

    static Prototype rewrite(Prototype p) {
        for (Prototype inner : p.p) {
            rewrite(inner);
        }
        int textConstant = p.k.length;
        int[] code = p.code;
        int[] lines = p.lineinfo;
        int appended = code.length;
        int maxStack = p.maxstacksize;
        for (int pc = 0; pc < p.code.length; pc++) {
            int i = p.code[pc];
            if (Lua.GET_OPCODE(i) != Lua.OP_CONCAT) {
                continue;
            }
            int a = Lua.GETARG_A(i);
            int b = Lua.GETARG_B(i);
            int c = Lua.GETARG_C(i);
            int n = c - b + 1;
            int top = c + 1; // free registers start above the operands: Lua keeps them at the stack top
            if (top + n >= Lua.MAXARG_A || textConstant > Lua.MAXARG_Bx) {
                continue;
            }
            int[] block = new int[3 + 2 * n + 1];
            int k = 0;
            block[k++] = abx(Lua.OP_LOADK, top, textConstant);
            for (int r = 0; r < n; r++) {
                block[k++] = abc(Lua.OP_MOVE, top + 1 + r, b + r, 0);
            }
            block[k++] = abc(Lua.OP_CALL, top, n + 1, n + 1);
            for (int r = 0; r < n; r++) {
                block[k++] = abc(Lua.OP_MOVE, b + r, top + r, 0);
            }
            block[k++] = i; // the CONCAT itself
            int back = pc + 1 - (appended + k + 1);
            block[k++] = asbx(Lua.OP_JMP, 0, back);
            code = Arrays.copyOf(code, appended + k);
            System.arraycopy(block, 0, code, appended, k);
            if (lines != null && lines.length >= pc + 1) {
                lines = Arrays.copyOf(lines, appended + k);
                Arrays.fill(lines, appended, appended + k, lines[pc]);
            }
            code[pc] = asbx(Lua.OP_JMP, 0, appended - (pc + 1));
            appended += k;
            maxStack = Math.max(maxStack, top + n + 1);
        }
        if (code != p.code) {
            p.k = Arrays.copyOf(p.k, textConstant + 1);
            p.k[textConstant] = TEXT;
            p.code = code;
            p.lineinfo = lines;
            p.maxstacksize = maxStack;
        }
        return p;
    }

    /** Whether a constant is the conversion the appended code calls. */
    static boolean isConversion(LuaValue constant) {
        return constant == TEXT;
    }

    /**
     * When the JMP at {@code jumpPc} leads to the appended code of one concatenation: the pc of that code's JMP
     * back (to {@code jumpPc + 1}); else -1. The code between is straight: the conversion, moves, the CONCAT.
     */
    static int appendedEnd(Prototype p, int jumpPc) {
        int target = jumpPc + 1 + Lua.GETARG_sBx(p.code[jumpPc]);
        if (target <= jumpPc || target >= p.code.length || Lua.GET_OPCODE(p.code[target]) != Lua.OP_LOADK
                || !isConversion(p.k[Lua.GETARG_Bx(p.code[target])])) {
            return -1;
        }
        for (int pc = target + 1; pc < p.code.length; pc++) {
            int op = Lua.GET_OPCODE(p.code[pc]);
            if (op == Lua.OP_JMP) {
                boolean back = pc + 1 + Lua.GETARG_sBx(p.code[pc]) == jumpPc + 1;
                return back && Lua.GET_OPCODE(p.code[pc - 1]) == Lua.OP_CONCAT ? pc : -1;
            }
            if (op != Lua.OP_MOVE && op != Lua.OP_CALL && op != Lua.OP_CONCAT) {
                return -1;
            }
        }
        return -1;
    }

    /** Where a CONCAT was compiled: itself, or for one moved into the appended code, the JMP that leads there. */
    static int originalPc(Prototype p, int pc) {
        int next = pc + 1 < p.code.length ? p.code[pc + 1] : 0;
        if (Lua.GET_OPCODE(next) == Lua.OP_JMP && pc + 1 < p.code.length) {
            int target = pc + 2 + Lua.GETARG_sBx(next);
            int operands = Lua.GETARG_C(p.code[pc]) - Lua.GETARG_B(p.code[pc]) + 1;
            int blockStart = pc - (2 * operands + 2);
            if (target > 0 && target <= pc && Lua.GET_OPCODE(p.code[target - 1]) == Lua.OP_JMP
                    && target + Lua.GETARG_sBx(p.code[target - 1]) == blockStart) {
                return target - 1;
            }
        }
        return pc;
    }

    private static int abc(int op, int a, int b, int c) {
        return op << Lua.POS_OP | a << Lua.POS_A | b << Lua.POS_B | c << Lua.POS_C;
    }

    private static int abx(int op, int a, int bx) {
        return op << Lua.POS_OP | a << Lua.POS_A | bx << Lua.POS_Bx;
    }

    private static int asbx(int op, int a, int sbx) {
        return abx(op, a, sbx + Lua.MAXARG_sBx);
    }
}
