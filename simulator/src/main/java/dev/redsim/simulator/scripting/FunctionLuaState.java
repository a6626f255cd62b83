package dev.redsim.simulator.scripting;

import dev.redsim.simulator.error.RedisError;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;

import java.io.ByteArrayInputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Lua state FUNCTION libraries live in, apart from EVAL's (Redis 7.0's function_lua.c). Library code sees
 * an empty, read-only globals table whose lookups go elsewhere: while FUNCTION LOAD runs the code, only to
 * redis.register_function, redis.log and the version fields; afterwards (when functions run) to the full
 * sandbox EVAL scripts get. Closures keep that table, so a function body finds the full sandbox at run time.
 */
final class FunctionLuaState {
    static final String CHUNK = "user_function";
    /** Redis 7.0 stops a library's load code after 500 ms (function_lua.c, LOAD_TIMEOUT_MS). */
    private static final long LOAD_TIMEOUT_NANOS = 500_000_000L;

    private final Globals runtime;
    private final LuaTable loadApi;
    private final ReadOnlyTables.ReadOnlyTable meta;
    // A Globals (not a plain table) so that luaj runs the library's closures with the runtime's hook and error
    // function: luaj only calls hooks for closures whose environment is a Globals. Sealed, as every table
    // library code can reach: nothing a function does may outlive it but data.
    private final ReadOnlyTables.SealedGlobals env = new ReadOnlyTables.SealedGlobals();
    private Map<String, LibraryFunction> registering;
    private String registeringLibrary;

    FunctionLuaState(Globals runtime) {
        this.runtime = runtime;
        this.loadApi = strict(loadGlobals());
        LuaTable entries = new LuaTable();
        entries.rawset("__index", runtime);
        entries.rawset("__newindex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw ScriptError.positioned("Attempt to modify a readonly table");
            }
        });
        meta = new ReadOnlyTables.ReadOnlyTable(entries);
        env.setmetatable(meta);
        env.seal();
        env.debuglib = runtime.debuglib;
        env.running = runtime.running;
        env.compiler = runtime.compiler;
        env.loader = runtime.loader;
    }

    /** The runtime state functions run in (with the full sandbox and its hook). */
    Globals runtime() {
        return runtime;
    }

    /**
     * Compiles and runs a library's code, collecting what it registers (in order).
     * Errors are Redis's "Error compiling function" / "Error registering functions" replies.
     */
    Map<String, LibraryFunction> load(String library, byte[] code, int codeStart) {
        LuaValue chunk;
        try {
            chunk = runtime.load(new ByteArrayInputStream(code, codeStart, code.length - codeStart), "@" + CHUNK,
                    "t", env);
        } catch (LuaError e) {
            throw new RedisError("ERR Error compiling function: " + CompileErrors.luaText(e.getMessage()));
        }
        Map<String, LibraryFunction> functions = new LinkedHashMap<>();
        registering = functions;
        registeringLibrary = library;
        meta.replace(LuaValue.INDEX, loadApi);
        ScriptHook hook = ScriptHook.of(runtime);
        hook.beginLoad(LOAD_TIMEOUT_NANOS);
        try {
            chunk.call();
        } catch (LuaError e) {
            String message = ScriptErrors.message(e, TailCalls.lastPosition(chunk, CHUNK));
            throw new RedisError("ERR Error registering functions: " + message);
        } catch (StackOverflowError e) {
            throw new RedisError("ERR Error registering functions: ERR stack overflow");
        } catch (OutOfMemoryError e) {
            hook.memory().exhaustedByJvm();
            throw new RedisError("ERR Error registering functions: " + ScriptMemory.NOT_ENOUGH_MEMORY);
        } finally {
            hook.end();
            registering = null;
            meta.replace(LuaValue.INDEX, runtime);
        }
        return functions;
    }

    /** The globals of library code while it loads: "redis" with what registering needs, nothing else. */
    private LuaTable loadGlobals() {
        LuaTable redis = new LuaTable();
        redis.rawset("register_function", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (registering == null) {
                    throw ScriptError.redis("ERR redis.register_function can only be called on FUNCTION LOAD command");
                }
                LibraryFunction function = FunctionRegistration.read(args, registeringLibrary);
                if (!LibraryShebang.validName(function.name())) {
                    // Redis 7.0 words this error with "Library names" for function names too
                    throw ScriptError.redis("ERR Library names can only contain letters, numbers, or underscores(_)"
                            + " and must be at least one character long");
                }
                if (registering.containsKey(function.name())) { // case-sensitive within a library, as in Redis
                    throw ScriptError.redis("ERR Function already exists in the library");
                }
                registering.put(function.name(), function);
                return LuaValue.NONE;
            }
        });
        LuaTable full = (LuaTable) runtime.rawget("redis");
        for (String name : new String[] {"log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING",
            "REDIS_VERSION", "REDIS_VERSION_NUM"}) {
            redis.rawset(name, full.rawget(name));
        }
        LuaTable globals = new LuaTable();
        globals.rawset("redis", strict(redis));
        return globals;
    }

    /** A read-only view of a table where reading a missing name is an error, as Redis's protected tables. */
    private static LuaTable strict(LuaTable table) {
        LuaTable m = new LuaTable();
        m.rawset("__index", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue self, LuaValue name) {
                LuaValue value = table.rawget(name);
                if (value.isnil()) {
                    throw ScriptError.positioned("Script attempted to access nonexistent global variable '"
                            + name.tojstring() + "'");
                }
                return value;
            }
        });
        m.rawset("__newindex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw ScriptError.positioned("Attempt to modify a readonly table");
            }
        });
        return new ReadOnlyTables.ReadOnlyTable(new LuaTable(), new ReadOnlyTables.ReadOnlyTable(m));
    }
}
