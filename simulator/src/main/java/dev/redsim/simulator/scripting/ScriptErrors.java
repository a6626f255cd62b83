package dev.redsim.simulator.scripting;

import dev.redsim.simulator.scripting.lib.VmError;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;

/** The texts Redis 7.0 gives script failures. */
final class ScriptErrors {
    private ScriptErrors() {
    }

    /** luaj names positions "@user_script:3"; Lua prints "user_script:3". */
    static String position(String fileline) {
        return fileline.startsWith("@") ? fileline.substring(1) : fileline;
    }

    /**
     * The error reply for a script that failed: the message, then "script: <sha>, on @user_script:<line>." as
     * Redis's error handler adds them.
     */
    static String runtime(LuaError error, String sha, String chunkName, String tailCallPosition) {
        String where = where(error, tailCallPosition);
        String line = where == null ? "?" : where.substring(where.lastIndexOf(':') + 1);
        // Redis names the innermost function's source: a C function when one called by C code failed
        String on = error instanceof ScriptError e && e.inC() ? "=[C]:-1" : "@" + chunkName + ":" + line;
        return message(error, tailCallPosition) + " script: " + sha + ", on " + on + ".";
    }

    /** The error text alone, with its code ("ERR user_script:1: boom", or a redis.call error as it was). */
    static String message(LuaError error, String tailCallPosition) {
        if (error instanceof ScriptError scriptError) {
            return scriptError.redisError() ? scriptError.getMessage()
                    : "ERR " + scriptError.messageAt(where(error, tailCallPosition));
        }
        LuaValue object = error.getMessageObject();
        if (object != null && object.istable() && object.get("err").isstring()) {
            return object.get("err").tojstring();
        }
        if (object == null || object.isnil()) {
            return "ERR nil";
        }
        String text = luaMessage(error);
        if (WhereFinder.where(error) == null && tailCallPosition != null && object.isstring()
                && !(error instanceof VmError)) {
            // a library function's error (luaL_error) escaped through "return f(...)": luaj saw no line
            text = tailCallPosition + ": " + text;
        }
        return "ERR " + LuaErrorTexts.lua51(text);
    }

    private static String where(LuaError error, String tailCallPosition) {
        String where = WhereFinder.where(error);
        return where == null ? tailCallPosition : where;
    }

    /** luaj writes "pos message"; Lua writes "pos: message". */
    private static String luaMessage(LuaError error) {
        String text = error.getMessage();
        String where = WhereFinder.where(error);
        if (where != null) {
            String luajPrefix = "@" + where + " ";
            if (text.startsWith(luajPrefix)) {
                return where + ": " + text.substring(luajPrefix.length());
            }
        }
        return text;
    }
}
