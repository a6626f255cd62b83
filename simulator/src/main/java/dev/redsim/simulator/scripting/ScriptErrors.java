package dev.redsim.simulator.scripting;

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
        String message;
        String where;
        if (error instanceof ScriptError scriptError) {
            where = scriptError.where() == null ? tailCallPosition : scriptError.where();
            message = scriptError.redisError() ? scriptError.getMessage() : "ERR " + scriptError.messageAt(where);
        } else {
            LuaValue object = error.getMessageObject();
            where = WhereFinder.where(error);
            if (where == null) {
                where = tailCallPosition;
            }
            if (object != null && object.istable() && object.get("err").isstring()) {
                message = object.get("err").tojstring();
            } else if (object == null || object.isnil()) {
                message = "ERR nil";
            } else {
                message = "ERR " + luaMessage(error);
            }
        }
        String line = where == null ? "?" : where.substring(where.lastIndexOf(':') + 1);
        return message + " script: " + sha + ", on @" + chunkName + ":" + line + ".";
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
