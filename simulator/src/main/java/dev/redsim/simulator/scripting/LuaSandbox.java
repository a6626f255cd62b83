package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.CoroutineLib;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.ZeroArgFunction;
import org.luaj.vm2.lib.jse.JseBaseLib;
import org.luaj.vm2.lib.jse.JseMathLib;

/**
 * The Lua world Redis 7.0 gives scripts, built on luaj (Lua 5.2): the Lua 5.1 names scripts rely on (unpack,
 * loadstring, table.getn, math.mod, ...), no io/os/debug/file loading, Redis's math.random, numbers printed as
 * Lua 5.1 prints them, and globals that can be neither created nor read when missing.
 */
final class LuaSandbox {
    private LuaSandbox() {
    }

    static Globals create(LuaTable redisApi, RedisRand48 random) {
        StringMetatable.install(); // before luaj's StringLib would install a writable one of its own
        GlobalsName.install(); // before anything compiles: _ENV is an ordinary name in Lua 5.1
        ReadOnlyTables.SealedGlobals g = new ReadOnlyTables.SealedGlobals();
        g.load(new JseBaseLib());
        g.load(new org.luaj.vm2.lib.PackageLib()); // the libraries register in package.loaded
        g.load(new TableLib());
        g.load(new StringLib());
        g.load(new CoroutineLib());
        g.load(new JseMathLib());
        LoadState.install(g);
        LuaC.install(g);
        ConcatNumbers.install(g);
        for (String name : new String[] {"dofile", "loadfile", "print", "rawlen", "require", "package"}) {
            g.rawset(name, LuaValue.NIL);
        }
        g.rawset("_VERSION", LuaValue.valueOf("Lua 5.1"));
        addLua51Names(g);
        replaceBaseFunctions(g);
        installGetmetatable(g);
        ResultBounds.install(g);
        Chunks.install(g);
        installRandom((LuaTable) g.rawget("math"), random);
        Coroutines.install(g, (LuaTable) g.rawget("coroutine"));
        Lua51Table.install((LuaTable) g.rawget("table"));
        Lua51Strings.install(g, (LuaTable) g.rawget("string"));
        ((LuaTable) g.rawget("string")).rawset("format", new Lua51Format());
        Lua51Signatures.install(g);
        ScriptLibraries.install(g);
        g.rawset("redis", new ReadOnlyTables.ReadOnlyTable(redisApi));
        g.rawset("__redis__err__handler", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue error) {
                return error;
            }
        });
        g.rawset("pcall", CLevel.counted(g, "pcall", new Lua51Pcall(g.rawget("pcall"))));
        g.rawset("xpcall", CLevel.counted(g, "xpcall", g.rawget("xpcall")));
        for (String library : new String[] {"string", "table", "math", "coroutine", "cjson", "cmsgpack", "struct",
            "bit"}) {
            g.rawset(library, new ReadOnlyTables.ReadOnlyTable((LuaTable) g.rawget(library)));
        }
        protect(g);
        g.seal();
        return g;
    }

    /** Sets KEYS or ARGV for the next script run (the globals are otherwise read-only). */
    static void setScriptGlobal(Globals g, String name, LuaValue value) {
        ((ReadOnlyTables.SealedGlobals) g).setScriptGlobal(name, value);
    }

    private static void addLua51Names(Globals g) {
        LuaTable table = (LuaTable) g.rawget("table");
        g.rawset("unpack", table.rawget("unpack"));
        table.rawset("unpack", LuaValue.NIL);
        table.rawset("pack", LuaValue.NIL);
        table.rawset("getn", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue t) {
                return LuaValue.valueOf(t.checktable().length());
            }
        });
        table.rawset("maxn", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue t) {
                double max = 0;
                LuaTable tab = t.checktable();
                for (Varargs e = tab.next(LuaValue.NIL); !e.arg1().isnil(); e = tab.next(e.arg1())) {
                    if (e.arg1().type() == LuaValue.TNUMBER) {
                        max = Math.max(max, e.arg1().todouble());
                    }
                }
                return LuaValue.valueOf(max);
            }
        });
        table.rawset("foreach", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue t, LuaValue f) {
                LuaTable tab = t.checktable();
                f.checkfunction();
                for (Varargs e = tab.next(LuaValue.NIL); !e.arg1().isnil(); e = tab.next(e.arg1())) {
                    LuaValue r = f.call(e.arg1(), e.arg(2));
                    if (!r.isnil()) {
                        return r;
                    }
                }
                return LuaValue.NIL;
            }
        });
        table.rawset("foreachi", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue t, LuaValue f) {
                LuaTable tab = t.checktable();
                f.checkfunction();
                int n = tab.length();
                for (int i = 1; i <= n; i++) {
                    LuaValue r = f.call(LuaValue.valueOf(i), tab.get(i));
                    if (!r.isnil()) {
                        return r;
                    }
                }
                return LuaValue.NIL;
            }
        });
        table.rawset("setn", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue t, LuaValue n) {
                throw ScriptError.positioned("'setn' is obsolete");
            }
        });
        LuaTable math = (LuaTable) g.rawget("math");
        math.rawset("mod", math.rawget("fmod"));
        math.rawset("log10", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue x) {
                return LuaValue.valueOf(Math.log10(x.checkdouble()));
            }
        });
        LuaTable string = (LuaTable) g.rawget("string");
        string.rawset("gfind", string.rawget("gmatch"));
        g.rawset("gcinfo", new ZeroArgFunction() {
            @Override
            public LuaValue call() {
                return LuaValue.valueOf(Runtime.getRuntime().totalMemory() / 1024);
            }
        });
    }

    /** tostring prints numbers with "%.14g"; error() adds "user_script:N: " to strings as Lua 5.1 does. */
    private static void replaceBaseFunctions(Globals g) {
        LuaValue tostring = g.rawget("tostring");
        g.rawset("tostring", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue v) {
                if (v.type() == LuaValue.TNUMBER) {
                    return LuaValue.valueOf(LuaNumbers.toLuaString(v.todouble()));
                }
                return tostring.call(v);
            }
        });
        g.rawset("error", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue value = args.arg1();
                int level = args.optint(2, 1);
                if (value.type() == LuaValue.TSTRING || value.type() == LuaValue.TNUMBER) {
                    String text = value.type() == LuaValue.TNUMBER
                            ? LuaNumbers.toLuaString(value.todouble()) : value.tojstring();
                    // Level 1 names the line that called error(); level 2 names its caller, which for the
                    // script's main chunk is Redis itself (no position), as is level 0.
                    if (level == 1) {
                        throw ScriptError.positioned(text);
                    }
                    String where = level >= 2 && g.debuglib instanceof ScriptHook hook ? hook.positionAt(level) : null;
                    throw where == null ? ScriptError.unpositioned(text) : ScriptError.prefixed(where, text);
                }
                throw new org.luaj.vm2.LuaError(value);
            }
        });
    }

    private static void installRandom(LuaTable math, RedisRand48 random) {
        math.rawset("random", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                double r = random.nextDouble();
                switch (args.narg()) {
                    case 0:
                        return LuaValue.valueOf(r);
                    case 1: {
                        int upper = args.checkint(1);
                        if (upper < 1) {
                            throw ScriptError.positioned("bad argument #1 to 'random' (interval is empty)");
                        }
                        return LuaValue.valueOf(Math.floor(r * upper) + 1);
                    }
                    case 2: {
                        int lower = args.checkint(1);
                        int upper = args.checkint(2);
                        if (lower > upper) {
                            throw ScriptError.positioned("bad argument #2 to 'random' (interval is empty)");
                        }
                        return LuaValue.valueOf(Math.floor(r * (upper - lower + 1)) + lower);
                    }
                    default:
                        throw ScriptError.positioned("wrong number of arguments");
                }
            }
        });
        math.rawset("randomseed", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue seed) {
                random.seed(seed.checkint());
                return LuaValue.NONE.arg1();
            }
        });
    }

    /** Redis 7.0 makes the globals read-only and reading an unknown global an error. */
    private static void protect(Globals g) {
        LuaTable meta = new LuaTable();
        meta.rawset("__index", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue table, LuaValue name) {
                throw ScriptError.positioned("Script attempted to access nonexistent global variable '"
                        + name.tojstring() + "'");
            }
        });
        meta.rawset("__newindex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw ScriptError.positioned("Attempt to modify a readonly table");
            }
        });
        g.setmetatable(new ReadOnlyTables.ReadOnlyTable(meta));
    }

    /**
     * getmetatable('') answers this state's own sealed string metatable ({__index = string}), as Redis's does;
     * the metatable luaj really uses for strings is one per JVM ({@link StringMetatable}).
     */
    private static void installGetmetatable(Globals g) {
        LuaValue getmetatable = g.rawget("getmetatable");
        g.rawset("getmetatable", new OneArgFunction() {
            private LuaTable stringMeta;

            @Override
            public LuaValue call(LuaValue value) {
                if (value.type() != LuaValue.TSTRING) {
                    return getmetatable.call(value);
                }
                if (stringMeta == null) { // built on first use: the sealed string table exists only at the end
                    stringMeta = ReadOnlyTables.of(LuaValue.INDEX, g.rawget("string"));
                }
                return stringMeta;
            }
        });
    }

    static LuaString text(String s) {
        return LuaString.valueOf(s);
    }
}
