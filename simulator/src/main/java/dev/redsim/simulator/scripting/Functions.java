package dev.redsim.simulator.scripting;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The FUNCTION libraries of one server (Redis 7.0's functions.c): loading, replacing, deleting, flushing and
 * restoring libraries, finding functions by name (case-insensitively, as Redis does; library names are
 * case-sensitive), and running one for FCALL / FCALL_RO through the shared script runner.
 */
public final class Functions {
    private final Scripting scripting;
    private Map<String, FunctionLibrary> libraries = new LinkedHashMap<>();
    private Map<String, LibraryFunction> functions = new HashMap<>();
    private FunctionLuaState lua;

    Functions(Scripting scripting) {
        this.scripting = scripting;
    }

    static String key(String functionName) {
        return functionName.toLowerCase(Locale.ROOT);
    }

    private FunctionLuaState lua() {
        if (lua == null) {
            lua = new FunctionLuaState(scripting.newLuaState());
        }
        return lua;
    }

    // ---- libraries ----

    /** FUNCTION LOAD: compiles, registers and links a library; returns its name. */
    public String load(byte[] code, boolean replace) {
        FunctionLibrary library = compile(code, replace ? null : libraries);
        FunctionLibrary old = replace ? libraries.get(library.name()) : null;
        checkCollisions(library, old);
        if (old != null) {
            unlink(old);
        }
        link(library);
        return library.name();
    }

    /** Compiles a library; with {@code existing}, a library of the same name there is an error. */
    private FunctionLibrary compile(byte[] code, Map<String, FunctionLibrary> existing) {
        LibraryShebang shebang = LibraryShebang.parse(code);
        if (!LibraryShebang.validName(shebang.name())) {
            throw new RedisError("ERR Library names can only contain letters, numbers, or underscores(_) and must"
                    + " be at least one character long");
        }
        if (!shebang.engine().equalsIgnoreCase(FunctionLibrary.ENGINE)) {
            throw new RedisError("ERR Engine '" + shebang.engine() + "' not found");
        }
        if (existing != null && existing.containsKey(shebang.name())) {
            throw new RedisError("ERR Library '" + shebang.name() + "' already exists");
        }
        Map<String, LibraryFunction> registered = lua().load(shebang.name(), code, shebang.codeStart());
        if (registered.isEmpty()) {
            throw new RedisError("ERR No functions registered");
        }
        return new FunctionLibrary(shebang.name(), code.clone(), registered);
    }

    /** A function name another library (other than the one being replaced) already has is an error. */
    private void checkCollisions(FunctionLibrary library, FunctionLibrary replaced) {
        for (LibraryFunction f : library.functions().values()) {
            LibraryFunction other = functions.get(key(f.name()));
            if (other != null && (replaced == null || !other.library().equals(replaced.name()))) {
                throw new RedisError("ERR Function " + f.name() + " already exists");
            }
        }
    }

    private void link(FunctionLibrary library) {
        libraries.put(library.name(), library);
        for (LibraryFunction f : library.functions().values()) {
            functions.putIfAbsent(key(f.name()), f); // 'a' and 'A' of one library: the first wins the lookup
        }
    }

    private void unlink(FunctionLibrary library) {
        libraries.remove(library.name());
        for (LibraryFunction f : library.functions().values()) {
            functions.remove(key(f.name()), f);
        }
    }

    /** FUNCTION DELETE. */
    public void delete(String name) {
        FunctionLibrary library = libraries.get(name);
        if (library == null) {
            throw new RedisError("ERR Library not found");
        }
        unlink(library);
    }

    /** FUNCTION FLUSH: drops every library and the Lua state they lived in, as Redis does. */
    public void flush() {
        libraries = new LinkedHashMap<>();
        functions = new HashMap<>();
        lua = null;
    }

    public Collection<FunctionLibrary> libraries() {
        return libraries.values();
    }

    /** The size of the libraries' code (for INFO's used_memory_functions). */
    public long codeBytes() {
        long bytes = 0;
        for (FunctionLibrary library : libraries.values()) {
            bytes += library.code().length;
        }
        return bytes;
    }

    public int functionCount() {
        return functions.size();
    }

    // ---- DUMP / RESTORE ----

    public byte[] dump() {
        List<byte[]> codes = new ArrayList<>();
        for (FunctionLibrary library : libraries.values()) {
            codes.add(library.code());
        }
        return FunctionDump.write(codes);
    }

    public enum RestorePolicy { APPEND, REPLACE, FLUSH }

    /** FUNCTION RESTORE: every library of the payload is compiled before any existing one changes. */
    public void restore(byte[] payload, RestorePolicy policy) {
        List<byte[]> codes = FunctionDump.read(payload);
        Map<String, FunctionLibrary> restored = new LinkedHashMap<>();
        Map<String, String> restoredFunctions = new HashMap<>();
        for (byte[] code : codes) {
            FunctionLibrary library = compile(code, restored);
            for (LibraryFunction f : library.functions().values()) {
                if (restoredFunctions.putIfAbsent(key(f.name()), library.name()) != null) {
                    throw new RedisError("ERR Function " + f.name() + " already exists");
                }
            }
            restored.put(library.name(), library);
        }
        if (policy == RestorePolicy.FLUSH) {
            libraries = new LinkedHashMap<>();
            functions = new HashMap<>();
        } else {
            join(restored.values(), policy == RestorePolicy.REPLACE);
        }
        for (FunctionLibrary library : restored.values()) {
            link(library);
        }
    }

    /** Checks the restored libraries against the current ones (Redis's libraryJoin), then drops replaced ones. */
    private void join(Collection<FunctionLibrary> restored, boolean replace) {
        List<FunctionLibrary> replaced = new ArrayList<>();
        for (FunctionLibrary library : restored) {
            FunctionLibrary old = libraries.get(library.name());
            if (old != null) {
                if (!replace) {
                    throw new RedisError("ERR Library " + library.name() + " already exists");
                }
                replaced.add(old);
            }
        }
        for (FunctionLibrary library : restored) {
            for (LibraryFunction f : library.functions().values()) {
                LibraryFunction other = functions.get(key(f.name()));
                if (other != null && replaced.stream().noneMatch(r -> r.name().equals(other.library()))) {
                    throw new RedisError("ERR Function " + f.name() + " already exists");
                }
            }
        }
        for (FunctionLibrary old : replaced) {
            unlink(old);
        }
    }

    // ---- FCALL ----

    /** Whether FCALL of the named function is denyoom (by its flags); the command's own flag for an unknown one. */
    boolean denyOom(String name, boolean byDefault) {
        LibraryFunction function = functions.get(key(name));
        return function == null ? byDefault : function.denyOom();
    }

    /** FCALL / FCALL_RO: args are FCALL name numkeys key... arg... */
    public void call(CommandContext ctx, boolean readOnlyCommand) {
        LibraryFunction function = functions.get(key(ctx.text(1)));
        if (function == null) {
            throw new RedisError("ERR Function not found");
        }
        long numkeys;
        try {
            numkeys = ctx.longArg(2);
        } catch (RedisError e) {
            throw new RedisError("ERR Bad number of keys provided");
        }
        if (numkeys > ctx.argc() - 3) {
            throw new RedisError("ERR Number of keys can't be greater than number of args");
        }
        if (numkeys < 0) {
            throw new RedisError("ERR Number of keys can't be negative");
        }
        if (function.noCluster()) {
            scripting.refuseOnClusterNode();
        }
        if (readOnlyCommand && !function.noWrites()) {
            throw new RedisError("ERR Can not execute a script with write flag using *_ro command.");
        }
        if (function.denyOom()) {
            scripting.refuseIfOutOfMemory();
        }
        byte[][] args = ctx.args();
        int firstArg = 3 + (int) numkeys;
        scripting.execute(ctx, lua().runtime(), function.callback(), LuaValue.varargsOf(strings(args, 3, firstArg),
                strings(args, firstArg, args.length)), function.name(), FunctionLuaState.CHUNK,
                readOnlyCommand || function.noWrites(), function.allowOom(), function.allowCrossSlot(),
                function.provablyShort(), null);
    }

    private static LuaTable strings(byte[][] args, int from, int to) {
        LuaTable table = new LuaTable(Math.max(0, to - from), 0);
        for (int i = from; i < to; i++) {
            table.rawset(i - from + 1, LuaString.valueOf(args[i]));
        }
        return table;
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
