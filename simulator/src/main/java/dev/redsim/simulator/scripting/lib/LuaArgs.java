package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * Argument checks with the wording of Lua 5.1's auxiliary library (luaL_check*), which Redis's bundled C
 * libraries use: "bad argument #2 to 'pack' (number expected, got nil)". Numbers and numeric strings
 * convert into each other the Lua 5.1 way (numbers print with %.14g).
 */
final class LuaArgs {
    private LuaArgs() {
    }

    static LuaError error(String message) {
        return new LuaError(message);
    }

    static LuaError argError(String function, int arg, String message) {
        return new LuaError("bad argument #" + arg + " to '" + function + "' (" + message + ")");
    }

    static LuaError typeError(String function, Varargs args, int arg, String expected) {
        return argError(function, arg, expected + " expected, got " + typeName(args, arg));
    }

    /** Lua's type name of an argument, "no value" past the last one. */
    static String typeName(Varargs args, int arg) {
        return arg > args.narg() ? "no value" : args.arg(arg).typename();
    }

    /** The number an argument converts to (numbers, numeric strings), or null. */
    static Double toNumber(LuaValue value) {
        if (value.type() == LuaValue.TNUMBER) {
            return value.todouble();
        }
        if (value.type() == LuaValue.TSTRING) {
            return CNumbers.luaStringToNumber(bytes(value.checkstring()));
        }
        return null;
    }

    static double checkNumber(String function, Varargs args, int arg) {
        Double n = arg > args.narg() ? null : toNumber(args.arg(arg));
        if (n == null) {
            throw typeError(function, args, arg, "number");
        }
        return n;
    }

    /** luaL_checkinteger: the number cast to a C long (lua_Integer). */
    static long checkInteger(String function, Varargs args, int arg) {
        return CNumbers.toLong(checkNumber(function, args, arg));
    }

    static long optInteger(String function, Varargs args, int arg, long fallback) {
        return args.arg(arg).isnil() ? fallback : checkInteger(function, args, arg);
    }

    static LuaString checkString(String function, Varargs args, int arg) {
        LuaString s = arg > args.narg() ? null : toLuaString(args.arg(arg));
        if (s == null) {
            throw typeError(function, args, arg, "string");
        }
        return s;
    }

    /** A string argument, or a number printed as Lua 5.1 prints it; null for other types. */
    static LuaString toLuaString(LuaValue value) {
        if (value.type() == LuaValue.TSTRING) {
            return value.checkstring();
        }
        if (value.type() == LuaValue.TNUMBER) {
            return LuaString.valueOf(CNumbers.formatG(value.todouble(), 14));
        }
        return null;
    }

    static byte[] bytes(LuaString s) {
        byte[] out = new byte[s.m_length];
        s.copyInto(0, out, 0, s.m_length);
        return out;
    }

    /** A Lua number from a C double, as lua_pushnumber makes it. */
    static LuaValue number(double d) {
        return LuaValue.valueOf(d);
    }
}
