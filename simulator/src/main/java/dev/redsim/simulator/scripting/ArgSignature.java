package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * The argument types a Lua 5.1 library function checks, one letter per argument, to find which argument is
 * bad and say it as luaL_check* does. Letters: s string, n number (both accept the other when it converts),
 * t table, f function, a any value (only a missing one fails), r gsub's replacement, m nil or table;
 * upper case S N F: optional (missing or nil is fine); a trailing '*' repeats the letter before it; a
 * trailing '<' checks from the last argument back (C evaluates fmod(check(1), check(2)) right to left);
 * a trailing '%' checks the arguments after the first against string.format's conversions.
 */
final class ArgSignature {
    private final String letters;

    private final int required;
    private final int textArgs; // bit k-1 set: argument k is read as a string (s, S, r)

    ArgSignature(String letters) {
        this.letters = letters;
        int last = 0;
        for (int i = 0; i < letters.length(); i++) {
            if (Character.isLowerCase(letters.charAt(i)) && letters.charAt(i) != '%') {
                last = i + 1;
            }
        }
        this.required = last;
        int mask = 0;
        for (int i = 0; i < letters.length() && i < 31; i++) {
            if ("sSr".indexOf(letters.charAt(i)) >= 0) {
                mask |= 1 << i;
            }
        }
        this.textArgs = mask;
    }

    /**
     * Whether argument {@code arg} should become Lua 5.1's text of a number before the call: luaj turns a
     * fractional or huge number into text through a Java float ("0.33333334"), Lua 5.1 with %.14g.
     */
    boolean needsText(int arg, LuaValue v) {
        return arg <= 31 && (textArgs & (1 << (arg - 1))) != 0 && v.type() == LuaValue.TNUMBER
                && !(v instanceof org.luaj.vm2.LuaInteger);
    }

    boolean hasTextArgs() {
        return textArgs != 0;
    }

    static LuaValue text(LuaValue number) {
        return LuaValue.valueOf(LuaNumbers.toLuaString(number.todouble()));
    }

    /** The arguments with numbers in string places turned into Lua 5.1's text; the same object if none. */
    Varargs withText(Varargs args) {
        if (textArgs == 0) {
            return args;
        }
        int n = args.narg();
        LuaValue[] out = null;
        for (int arg = 1; arg <= n; arg++) {
            LuaValue v = args.arg(arg);
            if (needsText(arg, v)) {
                if (out == null) {
                    out = new LuaValue[n];
                    for (int k = 1; k <= n; k++) {
                        out[k - 1] = args.arg(k);
                    }
                }
                out[arg - 1] = text(v);
            }
        }
        return out == null ? args : LuaValue.varargsOf(out);
    }

    /** How many arguments a call needs at least (luaj lets some missing ones pass that Lua 5.1 rejects). */
    int required() {
        return required;
    }

    /** The Lua 5.1 complaint about the first bad argument ("number expected, got string"), with its index. */
    Complaint firstBad(Varargs args) {
        if (letters.endsWith("<")) {
            for (int arg = letters.length() - 1; arg >= 1; arg--) {
                String problem = problem(letters.charAt(arg - 1), args, arg);
                if (problem != null) {
                    return new Complaint(arg, problem);
                }
            }
            return null;
        }
        boolean format = letters.endsWith("%");
        int checked = letters.endsWith("*") ? Math.max(args.narg(), letters.length() - 1)
                : letters.length() - (format ? 1 : 0);
        for (int arg = 1; arg <= checked; arg++) {
            char letter = letter(arg);
            String problem = problem(letter, args, arg);
            if (problem != null) {
                return new Complaint(arg, problem);
            }
        }
        return format ? formatArgs(args) : null;
    }

    /** string.format: each conversion takes the next argument, numbers for %d %c %e..., strings for %s %q. */
    private static Complaint formatArgs(Varargs args) {
        LuaValue f = args.arg1();
        String spec = f.tojstring();
        int arg = 1;
        for (int i = 0; i < spec.length(); i++) {
            if (spec.charAt(i) != '%') {
                continue;
            }
            i++;
            if (i < spec.length() && spec.charAt(i) == '%') {
                continue;
            }
            while (i < spec.length() && "-+ #0123456789.".indexOf(spec.charAt(i)) >= 0) {
                i++;
            }
            if (i >= spec.length()) {
                return null; // an invalid conversion: luaj's own text stands
            }
            arg++;
            if (arg > args.narg()) {
                return new Complaint(arg, "no value");
            }
            char conversion = spec.charAt(i);
            String problem = "diouxXcgGeEfaA".indexOf(conversion) >= 0 ? problem('n', args, arg)
                    : "sq".indexOf(conversion) >= 0 ? problem('s', args, arg) : null;
            if (problem != null) {
                return new Complaint(arg, problem);
            }
        }
        return null;
    }

    record Complaint(int arg, String text) {
    }

    private char letter(int arg) {
        boolean repeats = letters.endsWith("*") || letters.endsWith("%");
        int last = letters.length() - (repeats ? 2 : 1);
        return letters.charAt(Math.min(arg - 1, last));
    }

    private static String problem(char letter, Varargs args, int arg) {
        boolean missing = arg > args.narg();
        LuaValue v = args.arg(arg);
        if (Character.isUpperCase(letter)) {
            if (v.isnil()) {
                return null;
            }
            letter = Character.toLowerCase(letter);
        }
        String got = missing ? "no value" : v.typename();
        switch (letter) {
            case 's':
                return v.isstring() ? null : "string expected, got " + got;
            case 'n':
                return v.type() == LuaValue.TNUMBER || (v.type() == LuaValue.TSTRING && v.tonumber().isnumber())
                        ? null : "number expected, got " + got;
            case 't':
                return v.istable() ? null : "table expected, got " + got;
            case 'f':
                return v.isfunction() ? null : "function expected, got " + got;
            case 'a':
                return missing ? "value expected" : null;
            case 'r':
                return v.isstring() || v.isfunction() || v.istable() ? null : "string/function/table expected";
            case 'm':
                return !missing && (v.isnil() || v.istable()) ? null : "nil or table expected";
            default:
                return null;
        }
    }
}
