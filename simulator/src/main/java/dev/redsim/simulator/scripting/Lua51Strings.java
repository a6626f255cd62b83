package dev.redsim.simulator.scripting;

import dev.redsim.simulator.scripting.lib.CNumbers;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * tonumber and string.rep as Lua 5.1 has them, where luaj's fail on inputs Lua accepts: tonumber reads
 * strings with C's strtod (hex floats, "-0x10") or, with a base, strtoul; string.rep returns "" for a count
 * below one (luaj's throws). Argument type errors are raised in luaj's form for {@link Lua51Function}.
 */
final class Lua51Strings {
    private Lua51Strings() {
    }

    static void install(LuaTable globals, LuaTable string) {
        globals.rawset("tonumber", JavaFunction.of(Lua51Strings::tonumber));
        string.rawset("rep", JavaFunction.of(Lua51Strings::rep));
    }

    private static LuaValue tonumber(Varargs args) {
        LuaValue v = args.arg1();
        long base = args.arg(2).isnil() ? 10 : integer(args, 2);
        if (base == 10) {
            if (v.type() == LuaValue.TNUMBER) {
                return v;
            }
            if (v.type() != LuaValue.TSTRING) {
                return LuaValue.NIL;
            }
            Double d = CNumbers.luaStringToNumber(bytes(v.checkstring()));
            if (d != null && d.isNaN()) {
                // strtod's "nan" is a positive NaN; LuaNumbers prints Java's own NaN as x86's 0/0 ("-nan")
                return LuaValue.valueOf(Double.longBitsToDouble(0xfff8000000000000L));
            }
            return d == null ? LuaValue.NIL : LuaValue.valueOf(d);
        }
        if (!v.isstring()) {
            throw new LuaError("bad argument #1: string expected, got " + (args.narg() < 1 ? "no value" : v.typename()));
        }
        if (base < 2 || base > 36) {
            throw new LuaError("bad argument #2: base out of range");
        }
        byte[] s = v.type() == LuaValue.TNUMBER ? LuaNumbers.toLuaString(v.todouble()).getBytes()
                : bytes(v.checkstring());
        return strtoul(s, (int) base);
    }

    /** C's strtoul, then only white space: the (unsigned) value as a double, or nil. */
    private static LuaValue strtoul(byte[] s, int base) {
        int i = 0;
        while (i < s.length && isSpace(s[i])) {
            i++;
        }
        boolean negative = false;
        if (i < s.length && (s[i] == '-' || s[i] == '+')) {
            negative = s[i++] == '-';
        }
        if (base == 16 && i + 1 < s.length && s[i] == '0' && (s[i + 1] | 0x20) == 'x' && i + 2 < s.length
                && Character.digit(s[i + 2], 16) >= 0) {
            i += 2;
        }
        int digitsStart = i;
        java.math.BigInteger value = java.math.BigInteger.ZERO;
        while (i < s.length && Character.digit(s[i], base) >= 0) {
            value = value.multiply(java.math.BigInteger.valueOf(base)).add(java.math.BigInteger.valueOf(
                    Character.digit(s[i], base)));
            i++;
        }
        if (i == digitsStart) {
            return LuaValue.NIL;
        }
        while (i < s.length && isSpace(s[i])) {
            i++;
        }
        if (i < s.length && s[i] != 0) {
            return LuaValue.NIL;
        }
        java.math.BigInteger max = java.math.BigInteger.ONE.shiftLeft(64);
        long n = value.compareTo(max) >= 0 ? -1L : value.longValue(); // ULONG_MAX when out of range
        if (negative && value.compareTo(max) < 0) {
            n = -n; // strtoul negates in unsigned arithmetic
        }
        return LuaValue.valueOf(CNumbers.unsignedToDouble(n));
    }

    private static LuaValue rep(Varargs args) {
        LuaValue s = args.arg1();
        if (!s.isstring()) {
            throw new LuaError("bad argument #1: string expected, got " + s.typename());
        }
        long n = integer(args, 2);
        LuaString text = s.type() == LuaValue.TNUMBER ? LuaValue.valueOf(LuaNumbers.toLuaString(s.todouble()))
                : s.checkstring();
        if (n <= 0 || text.m_length == 0) {
            return LuaValue.EMPTYSTRING;
        }
        long total = n * text.m_length;
        if (total > Integer.MAX_VALUE - 16 || total / n != text.m_length) {
            throw ScriptError.unpositioned("not enough memory");
        }
        ScriptMemory.reserveInRunningScript(total);
        byte[] out = new byte[(int) total];
        for (int k = 0; k < n; k++) {
            text.copyInto(0, out, k * text.m_length, text.m_length);
        }
        return LuaString.valueUsing(out);
    }

    private static long integer(Varargs args, int arg) {
        LuaValue n = args.arg(arg).tonumber();
        if (n.isnil()) {
            throw new LuaError("bad argument #" + arg + ": number expected, got "
                    + (arg > args.narg() ? "no value" : args.arg(arg).typename()));
        }
        return LuaNumbers.toInteger(n.todouble());
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static byte[] bytes(LuaString s) {
        byte[] out = new byte[s.m_length];
        s.copyInto(0, out, 0, out.length);
        return out;
    }
}
