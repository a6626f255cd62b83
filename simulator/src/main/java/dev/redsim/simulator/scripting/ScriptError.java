package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;

/**
 * An error raised inside a script, keeping what Redis reports about it: the message, whether it already is a
 * Redis error text (from redis.call, so no position is added), and the script line where it passed.
 */
final class ScriptError extends LuaError {
    private final boolean redisError;
    private final boolean positioned;
    private final String text;
    private boolean counted;
    private String fixedWhere; // a position known better than luaj's (a frame luaj left by a tail call)
    private boolean inC;
    private String messageWhere; // error(msg, 2): the caller's line prefixes the message, not where it was raised // raised in a C function that C code called: Redis's reply says "on =[C]:-1"

    private ScriptError(String text, boolean redisError, boolean positioned) {
        super(text);
        this.text = text;
        this.redisError = redisError;
        this.positioned = positioned;
    }

    /** An error of a Redis command run by redis.call (its text starts with the error code). */
    static ScriptError redis(String text) {
        return new ScriptError(text, true, false);
    }

    /** As {@link #redis}, for an error already counted in INFO errorstats where redis.call met it. */
    static ScriptError counted(String text) {
        ScriptError error = new ScriptError(text, true, false);
        error.counted = true;
        return error;
    }

    boolean counted() {
        return counted;
    }

    /** A Lua error raised by our library code, shown with the script position as Lua's error() does. */
    static ScriptError positioned(String text) {
        return new ScriptError(text, false, true);
    }

    /**
     * error(message, 0), or a level past the script's main chunk: Lua adds no position to the message (the
     * reply still names the line in its "on @user_script:N" part).
     */
    static ScriptError unpositioned(String text) {
        return new ScriptError(text, false, false);
    }

    /** An error positioned at {@code where} ("user_script:2"), whatever frame luaj sees it pass through. */
    static ScriptError at(String where, String text) {
        ScriptError error = new ScriptError(text, false, true);
        error.fixedWhere = where;
        return error;
    }

    /** error(text, level) with the position of the code {@code level} frames up, where it differs from luaj's. */
    static ScriptError prefixed(String where, String text) {
        ScriptError error = new ScriptError(text, false, false);
        error.messageWhere = where;
        return error;
    }

    /** An error raised in a library function that another C function (gsub, sort) called. */
    static ScriptError inC(String text) {
        ScriptError error = new ScriptError(text, false, false);
        error.inC = true;
        return error;
    }

    boolean inC() {
        return inC;
    }

    boolean redisError() {
        return redisError;
    }

    @Override
    public String getMessage() {
        String message = message();
        // what an error function (xpcall's handler) made of the message; a coroutine has none, and luaj
        // then only appends a line break
        return traceback == null || traceback.equals(message + "\n") ? message : traceback;
    }

    private String message() {
        if (messageWhere != null) {
            return messageWhere + ": " + text;
        }
        if (fixedWhere != null) {
            return fixedWhere + ": " + text;
        }
        if (positioned && fileline != null) {
            return ScriptErrors.position(fileline) + ": " + text;
        }
        return text;
    }

    /** The message, placed at {@code fallback} when luaj did not see where it happened (a tail call). */
    String messageAt(String fallback) {
        if (fixedWhere == null && positioned && fileline == null && fallback != null) {
            return fallback + ": " + text;
        }
        return getMessage();
    }

    @Override
    public LuaValue getMessageObject() {
        return LuaValue.valueOf(getMessage());
    }

    /** "user_script:3" from where the error passed through the script, or null. */
    String where() {
        if (fixedWhere != null) {
            return fixedWhere;
        }
        return fileline == null ? null : ScriptErrors.position(fileline);
    }
}
