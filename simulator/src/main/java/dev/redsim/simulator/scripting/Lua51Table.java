package dev.redsim.simulator.scripting;

import org.luaj.vm2.Buffer;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * table.insert and table.concat as Lua 5.1 has them, where luaj's (Lua 5.2) differ: insert takes exactly two
 * or three arguments, concat names the bad element ("invalid value (table) at index 1 in table for 'concat'")
 * and prints numbers with %.14g. Argument type errors are raised in luaj's form for {@link Lua51Function} to
 * reword.
 */
final class Lua51Table {
    private Lua51Table() {
    }

    static void install(LuaTable table) {
        table.rawset("sort", new Lua51Sort());
        table.rawset("insert", JavaFunction.of(Lua51Table::insert));
        table.rawset("concat", JavaFunction.of(Lua51Table::concat));
    }

    private static Varargs insert(Varargs args) {
        LuaTable t = args.checktable(1);
        int end = t.length() + 1;
        int pos;
        switch (args.narg()) {
            case 2:
                pos = end;
                break;
            case 3:
                pos = integer(args, 2);
                end = Math.max(end, pos);
                for (int i = end; i > pos; i--) { // move up the elements from pos on
                    t.rawset(i, t.rawget(i - 1));
                }
                break;
            default:
                throw ScriptError.positioned("wrong number of arguments to 'insert'");
        }
        t.rawset(pos, args.arg(args.narg()));
        return LuaValue.NONE;
    }

    private static Varargs concat(Varargs args) {
        LuaTable t = args.checktable(1);
        LuaValue sep = args.arg(2).isnil() ? LuaValue.EMPTYSTRING : args.arg(2);
        if (!sep.isstring()) {
            throw new LuaError("bad argument #2: string expected, got " + sep.typename());
        }
        int first = args.arg(3).isnil() ? 1 : integer(args, 3);
        int last = args.arg(4).isnil() ? t.length() : integer(args, 4);
        Buffer out = new Buffer();
        for (int i = first; i <= last; i++) {
            LuaValue v = t.rawget(i);
            if (v.type() == LuaValue.TNUMBER) {
                out.append(LuaNumbers.toLuaString(v.todouble()));
            } else if (v.type() == LuaValue.TSTRING) {
                out.append(v.checkstring());
            } else {
                throw ScriptError.positioned("invalid value (" + v.typename() + ") at index " + i
                        + " in table for 'concat'");
            }
            if (i != last) {
                out.append(sep.type() == LuaValue.TNUMBER ? LuaValue.valueOf(LuaNumbers.toLuaString(sep.todouble()))
                        : sep.checkstring());
            }
        }
        return out.tostring();
    }

    /** luaL_checkint: a number or numeric string, truncated. */
    private static int integer(Varargs args, int arg) {
        LuaValue n = args.arg(arg).tonumber();
        if (n.isnil()) {
            throw new LuaError("bad argument #" + arg + ": number expected, got " + args.arg(arg).typename());
        }
        return (int) (long) n.todouble();
    }
}
