package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

import java.util.Map;

/**
 * The argument checks of the Lua 5.1 base, string, math and table functions scripts can reach (as lbaselib,
 * lstrlib, lmathlib and ltablib make them), in {@link ArgSignature} letters. {@link #install} wraps each of
 * these functions once, when the Lua state is built, so their argument errors read as Lua 5.1's.
 * error, pcall and xpcall are left alone: they raise or catch errors themselves.
 */
final class Lua51Signatures {
    private static final Map<String, String> BASE = Map.ofEntries(
            Map.entry("assert", "aS"), Map.entry("getmetatable", "a"), Map.entry("ipairs", "t"),
            Map.entry("pairs", "t"), Map.entry("next", "t"), Map.entry("rawequal", "aa"),
            Map.entry("rawget", "ta"), Map.entry("rawset", "taa"), Map.entry("select", "n"),
            Map.entry("setmetatable", "tm"), Map.entry("tonumber", "aN"), Map.entry("tostring", "a"),
            Map.entry("type", "a"), Map.entry("unpack", "tNN"), Map.entry("loadstring", "sS"),
            Map.entry("load", "fS"));
    private static final Map<String, String> STRING = Map.ofEntries(
            Map.entry("byte", "sNN"), Map.entry("char", "n*"), Map.entry("find", "ssN"), Map.entry("format", "s%"),
            Map.entry("gmatch", "ss"), Map.entry("gfind", "ss"), Map.entry("gsub", "ssrN"), Map.entry("len", "s"),
            Map.entry("lower", "s"), Map.entry("match", "ssN"), Map.entry("rep", "sn"), Map.entry("reverse", "s"),
            Map.entry("sub", "snN"), Map.entry("upper", "s"));
    private static final Map<String, String> MATH = Map.ofEntries(
            Map.entry("abs", "n"), Map.entry("acos", "n"), Map.entry("asin", "n"), Map.entry("atan", "n"),
            Map.entry("atan2", "nn<"), Map.entry("ceil", "n"), Map.entry("cos", "n"), Map.entry("cosh", "n"),
            Map.entry("deg", "n"), Map.entry("exp", "n"), Map.entry("floor", "n"), Map.entry("fmod", "nn<"),
            Map.entry("mod", "nn<"), Map.entry("frexp", "n"), Map.entry("ldexp", "nn<"), Map.entry("log", "n"),
            Map.entry("log10", "n"), Map.entry("max", "n*"), Map.entry("min", "n*"), Map.entry("modf", "n"),
            Map.entry("pow", "nn<"), Map.entry("rad", "n"), Map.entry("sin", "n"), Map.entry("sinh", "n"),
            Map.entry("sqrt", "n"), Map.entry("tan", "n"), Map.entry("tanh", "n"), Map.entry("random", "NN"),
            Map.entry("randomseed", "n"));
    private static final Map<String, String> TABLE = Map.ofEntries(
            Map.entry("concat", "tSNN"), Map.entry("insert", "t"), Map.entry("remove", "tN"),
            Map.entry("sort", "tF"), Map.entry("getn", "t"), Map.entry("maxn", "t"), Map.entry("foreach", "tf"),
            Map.entry("foreachi", "tf"), Map.entry("setn", "tn"));

    private Lua51Signatures() {
    }

    static void install(Globals g) {
        wrapAll(g, g, BASE);
        wrapAll(g, (LuaTable) g.rawget("string"), STRING);
        wrapAll(g, (LuaTable) g.rawget("math"), MATH);
        wrapAll(g, (LuaTable) g.rawget("table"), TABLE);
    }

    private static void wrapAll(Globals g, LuaTable table, Map<String, String> signatures) {
        signatures.forEach((name, letters) -> {
            LuaValue function = table.rawget(name);
            if (function.isfunction()) {
                table.rawset(name, new Lua51Function(name, function, new ArgSignature(letters), g));
            }
        });
    }
}
