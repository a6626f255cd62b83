package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.util.function.IntBinaryOperator;

/**
 * The global {@code bit} of Redis scripts (LuaBitOp 1.0): 32-bit operations on Lua numbers. Arguments
 * are reduced to 32 bits the way LuaBitOp does it (add 2^52+2^51, keep the low word: rounding to
 * nearest, modulo 2^32) and results are signed 32-bit numbers.
 */
public final class BitLib {
    /** 2^52 + 2^51: adding it puts the integer part of a double in the low bits of the mantissa. */
    private static final double NORMALIZER = 6755399441055744.0;

    private BitLib() {
    }

    public static LuaTable create() {
        LuaTable bit = new LuaTable();
        NamedFunction.register(bit, "tobit", args -> result(arg("tobit", args, 1)));
        NamedFunction.register(bit, "bnot", args -> result(~arg("bnot", args, 1)));
        NamedFunction.register(bit, "band", args -> fold("band", args, (a, b) -> a & b));
        NamedFunction.register(bit, "bor", args -> fold("bor", args, (a, b) -> a | b));
        NamedFunction.register(bit, "bxor", args -> fold("bxor", args, (a, b) -> a ^ b));
        NamedFunction.register(bit, "lshift", args -> shift("lshift", args, (b, n) -> b << n));
        NamedFunction.register(bit, "rshift", args -> shift("rshift", args, (b, n) -> b >>> n));
        NamedFunction.register(bit, "arshift", args -> shift("arshift", args, (b, n) -> b >> n));
        NamedFunction.register(bit, "rol", args -> shift("rol", args, Integer::rotateLeft));
        NamedFunction.register(bit, "ror", args -> shift("ror", args, Integer::rotateRight));
        NamedFunction.register(bit, "bswap", args -> result(Integer.reverseBytes(arg("bswap", args, 1))));
        NamedFunction.register(bit, "tohex", BitLib::tohex);
        return bit;
    }

    /** An argument as LuaBitOp's barg reads it; non-numbers are an error only when they read as 0. */
    static int arg(String function, Varargs args, int index) {
        Double n = index > args.narg() ? null : LuaArgs.toNumber(args.arg(index));
        double value = n == null ? 0 : n;
        int bits = (int) Double.doubleToRawLongBits(value + NORMALIZER);
        if (bits == 0 && n == null) {
            throw LuaArgs.typeError(function, args, index, "number");
        }
        return bits;
    }

    private static LuaValue result(int bits) {
        return LuaValue.valueOf(bits);
    }

    /** band/bor/bxor: the first argument, then the others from the last one down, as LuaBitOp folds. */
    private static Varargs fold(String function, Varargs args, IntBinaryOperator op) {
        int acc = arg(function, args, 1);
        for (int i = args.narg(); i > 1; i--) {
            acc = op.applyAsInt(acc, arg(function, args, i));
        }
        return result(acc);
    }

    private static Varargs shift(String function, Varargs args, IntBinaryOperator op) {
        int b = arg(function, args, 1);
        int n = arg(function, args, 2) & 31;
        return result(op.applyAsInt(b, n));
    }

    private static Varargs tohex(Varargs args) {
        int b = arg("tohex", args, 1);
        int n = args.narg() < 2 ? 8 : arg("tohex", args, 2);
        String digits = "0123456789abcdef";
        if (n < 0) {
            n = -n;
            digits = "0123456789ABCDEF";
        }
        if (n > 8) {
            n = 8;
        }
        if (n < 0) {
            n = 0;
        }
        byte[] out = new byte[n];
        for (int i = n - 1; i >= 0; i--) {
            out[i] = (byte) digits.charAt(b & 15);
            b >>>= 4;
        }
        return LuaString.valueOf(out);
    }
}
