package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Lua 5.1 gives a C function a stack of LUAI_MAXCSTACK (8000) slots, its arguments included: unpack and
 * string.byte refuse to push more results than fit ("too many results to unpack", "stack overflow (string slice
 * too long)"). luaj has no such bound: unpack({}, 1, 1e9) filled the heap for a minute.
 */
final class ResultBounds {
    /** LUAI_MAXCSTACK. */
    private static final long MAX_C_STACK = 8000;

    private ResultBounds() {
    }

    static void install(Globals g) {
        LuaValue unpack = g.rawget("unpack");
        g.rawset("unpack", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaTable table = args.checktable(1);
                long first = args.isnoneornil(2) ? 1 : args.checklong(2);
                long last = args.isnoneornil(3) ? table.length() : args.checklong(3);
                if (first > last) {
                    return LuaValue.NONE;
                }
                if (!fits(args.narg(), last - first + 1)) {
                    throw ScriptError.positioned("too many results to unpack");
                }
                return unpack.invoke(args);
            }
        });
        LuaTable string = (LuaTable) g.rawget("string");
        LuaValue stringByte = string.rawget("byte");
        string.rawset("byte", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                long length = args.checkstring(1).length();
                long first = relative(args.isnoneornil(2) ? 1 : args.checklong(2), length);
                long last = relative(args.isnoneornil(3) ? first : args.checklong(3), length);
                first = Math.max(first, 1);
                last = Math.min(last, length);
                if (first <= last && !fits(args.narg(), last - first + 1)) {
                    throw ScriptError.positioned("stack overflow (string slice too long)");
                }
                return stringByte.invoke(args);
            }
        });
    }

    /** lua_checkstack: the arguments and the results must fit the C function's stack. */
    private static boolean fits(int arguments, long results) {
        return results > 0 && results <= MAX_C_STACK && arguments + results <= MAX_C_STACK;
    }

    /** posrelat: a negative position counts from the end. */
    private static long relative(long position, long length) {
        return position < 0 ? length + position + 1 : position;
    }
}
