package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.DumpState;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.VarArgFunction;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Loading code from a script as Redis 7.0 allows it: source text only. Redis's Lua parses every chunk as text,
 * so a binary chunk (string.dump's output, or a mutated one) fails as a syntax error at its first byte; luaj would
 * run it, and mutated bytecode reached its internal errors. load takes only a function, as Lua 5.1's does; and
 * string.dump works on every Lua function, those with a concatenation among them.
 */
final class Chunks {
    private static final LuaValue TEXT_ONLY = LuaValue.valueOf("t");
    private static final int ESC = 27;
    /**
     * string.dump's chunks start with Lua 5.1's header, as Redis's do (signature, version 5.1, format 0, little
     * endian, sizes of int, size_t, instruction and number, floating numbers); the body is luaj's. It is loaded
     * nowhere (binary chunks are refused), but its first bytes are what scripts look at and what a loadstring
     * error names the chunk by.
     */
    private static final byte[] LUA51_HEADER = {ESC, 'L', 'u', 'a', 0x51, 0, 1, 4, 8, 4, 8, 0};
    /** luaj writes Lua 5.2's header: the same twelve bytes for 5.2, then LUAC_TAIL's six. */
    private static final int LUAJ_HEADER_LENGTH = 18;

    private Chunks() {
    }

    static void install(Globals g) {
        LuaValue load = g.rawget("load");
        g.rawset("loadstring", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaString chunk = args.checkstring(1);
                Varargs loaded = load.invoke(LuaValue.varargsOf(new LuaValue[] {chunk,
                    args.optvalue(2, upToNul(chunk)), TEXT_ONLY}));
                if (failed(loaded)) { // a compile error, in Lua 5.1's words
                    String message = CompileErrors.luaText(loaded.arg(2).tojstring());
                    int named = message.indexOf("\"]:");
                    if (chunk.length() > 0 && chunk.luaByte(0) == ESC && named > 0) {
                        // Lua's lexer stops at once at the binary signature's first byte, a control character
                        message = message.substring(0, named + 2) + ":1: unexpected symbol near 'char(27)'";
                    }
                    return LuaValue.varargsOf(LuaValue.NIL, LuaValue.valueOf(message));
                }
                return loaded;
            }
        });
        g.rawset("load", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (!args.arg1().isfunction()) {
                    String got = args.narg() == 0 ? "no value" : args.arg1().typename();
                    throw new LuaError("bad argument #1: function expected, got " + got);
                }
                Varargs loaded = load.invoke(LuaValue.varargsOf(new LuaValue[] {args.arg1(),
                    args.optvalue(2, LuaValue.valueOf("=(load)")), TEXT_ONLY}));
                return failed(loaded) ? LuaValue.varargsOf(LuaValue.NIL,
                        LuaValue.valueOf(CompileErrors.luaText(loaded.arg(2).tojstring()))) : loaded;
            }
        });
        ((LuaTable) g.rawget("string")).rawset("dump", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue function) {
                if (!(function.checkfunction() instanceof LuaClosure closure)) {
                    throw ScriptError.positioned("unable to dump given function");
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try {
                    DumpState.dump(dumpable(closure.p), out, true);
                } catch (IOException e) {
                    throw new LuaError(e.getMessage());
                }
                byte[] luaj = out.toByteArray();
                byte[] chunk = new byte[LUA51_HEADER.length + luaj.length - LUAJ_HEADER_LENGTH];
                System.arraycopy(LUA51_HEADER, 0, chunk, 0, LUA51_HEADER.length);
                System.arraycopy(luaj, LUAJ_HEADER_LENGTH, chunk, LUA51_HEADER.length, chunk.length - LUA51_HEADER.length);
                return LuaString.valueUsing(chunk);
            }
        });
    }

    /** luaj's load answers a compile error as (nil, message). */
    private static boolean failed(Varargs loaded) {
        return loaded.arg1().isnil() && loaded.arg(2).isstring();
    }

    /** Lua names a chunk by its text as a C string: up to the first NUL byte. */
    private static LuaString upToNul(LuaString chunk) {
        int nul = chunk.indexOf((byte) 0, 0);
        return nul < 0 ? chunk : chunk.substring(0, nul);
    }

    /**
     * A copy of {@code p} that luaj's dumper can write: the code ConcatNumbers appends calls a Java function
     * constant, which has no binary form; the copy holds nil in its place (no binary chunk is ever loaded back).
     */
    private static Prototype dumpable(Prototype p) {
        Prototype copy = new Prototype();
        copy.k = new LuaValue[p.k.length];
        for (int i = 0; i < p.k.length; i++) {
            copy.k[i] = p.k[i].isfunction() ? LuaValue.NIL : p.k[i];
        }
        copy.p = new Prototype[p.p.length];
        for (int i = 0; i < p.p.length; i++) {
            copy.p[i] = dumpable(p.p[i]);
        }
        copy.code = p.code;
        copy.upvalues = p.upvalues;
        copy.lineinfo = p.lineinfo;
        copy.locvars = p.locvars;
        copy.source = p.source;
        copy.linedefined = p.linedefined;
        copy.lastlinedefined = p.lastlinedefined;
        copy.numparams = p.numparams;
        copy.is_vararg = p.is_vararg;
        copy.maxstacksize = p.maxstacksize;
        return copy;
    }
}
