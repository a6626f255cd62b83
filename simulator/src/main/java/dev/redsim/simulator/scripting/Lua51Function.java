package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.LibFunction;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A luaj library function whose argument errors read as Lua 5.1's ("bad argument #2 to 'rep' (number
 * expected, got no value)") instead of luaj's ("bad argument: number expected, got nil"). Calls go straight
 * to the wrapped function; only when it fails on its own arguments does this work out which argument Lua 5.1
 * would blame ({@link ArgSignature}) and what the caller called the function ({@link ScriptHook#callSite}).
 */
final class Lua51Function extends LibFunction {
    private static final Pattern LUAJ_ARG_ERROR = Pattern.compile("^bad argument(?: #(\\d+))?: (.*)$",
            Pattern.DOTALL);

    /** luaj's pattern errors where Lua 5.1 quotes the characters. */
    private static final java.util.Map<String, String> PATTERN_TEXTS = java.util.Map.of(
            "malformed pattern (ends with %)", "malformed pattern (ends with '%')",
            "malformed pattern (missing ])", "malformed pattern (missing ']')",
            "Missing [ after %f in pattern", "missing '[' after '%f' in pattern");

    private final LuaValue inner;
    private final ArgSignature signature;
    private final Globals globals;

    Lua51Function(String name, LuaValue inner, ArgSignature signature, Globals globals) {
        this.name = name;
        this.inner = inner;
        this.signature = signature;
        this.globals = globals;
    }

    // Each arity delegates to the same arity so that calls allocate no more than the wrapped function does.

    @Override
    public LuaValue call() {
        requireArgs(0, LuaValue.NONE);
        try {
            return inner.call();
        } catch (LuaError e) {
            throw reworded(e, LuaValue.NONE);
        } catch (RuntimeException e) {
            throw crashed(e, LuaValue.NONE);
        }
    }

    @Override
    public LuaValue call(LuaValue a) {
        requireArgs(1, a);
        try {
            return inner.call(signature.needsText(1, a) ? ArgSignature.text(a) : a);
        } catch (LuaError e) {
            throw reworded(e, a);
        } catch (RuntimeException e) {
            throw crashed(e, a);
        }
    }

    @Override
    public LuaValue call(LuaValue a, LuaValue b) {
        if (signature.required() > 2) {
            requireArgs(2, LuaValue.varargsOf(a, b));
        }
        try {
            if (signature.hasTextArgs()) {
                a = signature.needsText(1, a) ? ArgSignature.text(a) : a;
                b = signature.needsText(2, b) ? ArgSignature.text(b) : b;
            }
            return inner.call(a, b);
        } catch (LuaError e) {
            throw reworded(e, LuaValue.varargsOf(a, b));
        } catch (RuntimeException e) {
            throw crashed(e, LuaValue.varargsOf(a, b));
        }
    }

    @Override
    public LuaValue call(LuaValue a, LuaValue b, LuaValue c) {
        try {
            if (signature.hasTextArgs()) {
                a = signature.needsText(1, a) ? ArgSignature.text(a) : a;
                b = signature.needsText(2, b) ? ArgSignature.text(b) : b;
                c = signature.needsText(3, c) ? ArgSignature.text(c) : c;
            }
            return inner.call(a, b, c);
        } catch (LuaError e) {
            throw reworded(e, LuaValue.varargsOf(a, b, c));
        } catch (RuntimeException e) {
            throw crashed(e, LuaValue.varargsOf(a, b, c));
        }
    }

    @Override
    public Varargs invoke(Varargs args) {
        requireArgs(args.narg(), args);
        try {
            return inner.invoke(signature.withText(args));
        } catch (LuaError e) {
            throw reworded(e, args);
        } catch (RuntimeException e) {
            throw crashed(e, args);
        }
    }

    /**
     * luaj's string matcher fails on some malformed patterns with a Java exception: Lua 5.1 reports the pattern
     * error instead. Anything else stays the failure it was.
     */
    private RuntimeException crashed(RuntimeException e, Varargs args) {
        if (args.arg(2).type() == LuaValue.TSTRING) {
            org.luaj.vm2.LuaString pattern = args.arg(2).checkstring();
            byte[] bytes = new byte[pattern.m_length];
            pattern.copyInto(0, bytes, 0, bytes.length);
            String problem = PatternErrors.problem(bytes);
            if (problem != null) {
                return ScriptError.positioned(problem);
            }
        }
        return e;
    }

    /** Fails a call with fewer arguments than the function needs, as Lua 5.1 would. */
    private void requireArgs(int given, Varargs args) {
        if (given < signature.required()) {
            ArgSignature.Complaint complaint = signature.firstBad(args);
            if (complaint != null) {
                throw argError(complaint.arg(), complaint.text());
            }
        }
    }

    /**
     * Lua 5.1's text for luaj's own argument error; any other error (one raised inside a Lua function this
     * one called, or one already in Lua 5.1's words) passes unchanged.
     */
    private LuaError reworded(LuaError e, Varargs args) {
        if (e.getClass() != LuaError.class) {
            return e;
        }
        String lua51 = PATTERN_TEXTS.get(e.getMessage());
        if (lua51 != null) {
            return new LuaError(lua51);
        }
        Matcher luaj = LUAJ_ARG_ERROR.matcher(String.valueOf(e.getMessage()));
        if (!luaj.matches()) {
            return e;
        }
        ArgSignature.Complaint complaint = signature.firstBad(args);
        if (complaint == null) {
            if (luaj.group(1) == null) {
                return e;
            }
            complaint = new ArgSignature.Complaint(Integer.parseInt(luaj.group(1)), luaj.group(2));
        }
        return argError(complaint.arg(), complaint.text());
    }

    private CallSite callSite() {
        ScriptHook hook = RunningHook.orElse(globals.debuglib instanceof ScriptHook own ? own : null);
        try {
            if (hook != null) {
                return hook.callSite(this);
            }
        } catch (RuntimeException e) {
            // a hook whose frames do not describe this call: name the function as registered
        }
        return new CallSite(name, false, true, null);
    }

    /** luaL_argerror: names the function as its caller did; a method call does not count self. */
    ScriptError argError(int arg, String text) {
        CallSite site = callSite();
        String message;
        if (site.method() && arg == 1) {
            message = "calling '" + site.name() + "' on bad self (" + text + ")";
        } else {
            String called = site.name() == null ? "?" : site.name();
            message = "bad argument #" + (site.method() ? arg - 1 : arg) + " to '" + called + "' (" + text + ")";
        }
        if (site.where() != null) {
            return ScriptError.at(site.where(), message);
        }
        return site.fromLua() ? ScriptError.positioned(message) : ScriptError.inC(message);
    }
}
