package dev.redsim.simulator.scripting;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Script positions in error messages: luaj's "@user_script:3 text" and Lua's "user_script:3: text". */
final class LuaPositions {
    private static final Pattern LUAJ = Pattern.compile("^@([^ :]+:\\d+) ");
    private static final Pattern LUA = Pattern.compile("^([^ :@]+:\\d+): ");

    private LuaPositions() {
    }

    /** The message with a leading luaj position written as Lua writes it. */
    static String luaStyle(String message) {
        Matcher m = LUAJ.matcher(message);
        return m.find() ? m.group(1) + ": " + message.substring(m.end()) : message;
    }

    /** "user_script:3" from a message that starts with a position in either style, or null. */
    static String where(String message) {
        Matcher m = LUAJ.matcher(message);
        if (m.find()) {
            return m.group(1);
        }
        m = LUA.matcher(message);
        return m.find() ? m.group(1) : null;
    }
}
