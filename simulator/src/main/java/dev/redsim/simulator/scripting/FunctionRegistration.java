package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of redis.register_function, in both forms: (name, callback) and a table of named arguments
 * (function_name, callback, flags, description), with Redis 7.0's error texts.
 */
final class FunctionRegistration {
    static final String[] FLAGS = {"no-writes", "allow-oom", "allow-stale", "no-cluster", "allow-cross-slot-keys"};

    private FunctionRegistration() {
    }

    static LibraryFunction read(Varargs args, String library) {
        if (args.narg() < 1 || args.narg() > 2) {
            throw fail("wrong number of arguments to redis.register_function");
        }
        return args.narg() == 1 ? named(args.arg1(), library) : positional(args, library);
    }

    private static LibraryFunction positional(Varargs args, String library) {
        if (!args.arg1().isstring()) {
            throw fail("first argument to redis.register_function must be a string");
        }
        if (!args.arg(2).isfunction()) {
            throw fail("second argument to redis.register_function must be a function");
        }
        return new LibraryFunction(args.arg1().tojstring(), args.arg(2), null, List.of(), library);
    }

    private static LibraryFunction named(LuaValue arg, String library) {
        if (!arg.istable()) {
            throw fail("calling redis.register_function with a single argument is only applicable to Lua table"
                    + " (representing named arguments).");
        }
        LuaTable table = (LuaTable) arg;
        String name = null;
        byte[] description = null;
        LuaValue callback = null;
        List<String> flags = List.of();
        for (Varargs e = table.next(LuaValue.NIL); !e.arg1().isnil(); e = table.next(e.arg1())) {
            LuaValue key = e.arg1();
            LuaValue value = e.arg(2);
            if (!key.isstring()) {
                throw fail("named argument key given to redis.register_function is not a string");
            }
            switch (key.tojstring().toLowerCase(java.util.Locale.ROOT)) {
                case "function_name" -> {
                    if (!value.isstring()) {
                        throw fail("function_name argument given to redis.register_function must be a string");
                    }
                    name = value.tojstring();
                }
                case "description" -> {
                    if (!value.isstring()) {
                        throw fail("description argument given to redis.register_function must be a string");
                    }
                    LuaString s = value.strvalue().checkstring();
                    description = new byte[s.m_length];
                    System.arraycopy(s.m_bytes, s.m_offset, description, 0, s.m_length);
                }
                case "callback" -> {
                    if (!value.isfunction()) {
                        throw fail("callback argument given to redis.register_function must be a function");
                    }
                    callback = value;
                }
                case "flags" -> {
                    if (!value.istable()) {
                        throw fail("flags argument to redis.register_function must be a table representing"
                                + " function flags");
                    }
                    flags = flags((LuaTable) value);
                }
                default -> throw fail("unknown argument given to redis.register_function");
            }
        }
        if (name == null) {
            throw fail("redis.register_function must get a function name argument");
        }
        if (callback == null) {
            throw fail("redis.register_function must get a callback argument");
        }
        return new LibraryFunction(name, callback, description, flags, library);
    }

    /** The flags array, up to its first nil; each a known flag (any case), kept in Redis's order. */
    private static List<String> flags(LuaTable table) {
        boolean[] set = new boolean[FLAGS.length];
        for (int i = 1; !table.get(i).isnil(); i++) {
            LuaValue flag = table.get(i);
            int index = flag.isstring() ? indexOf(flag.tojstring()) : -1;
            if (index < 0) {
                throw fail("unknown flag given");
            }
            set[index] = true;
        }
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < FLAGS.length; i++) {
            if (set[i]) {
                flags.add(FLAGS[i]);
            }
        }
        return List.copyOf(flags);
    }

    private static int indexOf(String flag) {
        for (int i = 0; i < FLAGS.length; i++) {
            if (FLAGS[i].equalsIgnoreCase(flag)) {
                return i;
            }
        }
        return -1;
    }

    private static ScriptError fail(String text) {
        return ScriptError.redis("ERR " + text);
    }
}
