package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaError;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the script position luaj puts in front of an error's message ("@user_script:3 ..."). */
final class WhereFinder {
    // luaj's form "@user_script:3 ...", or Lua 5.1's "user_script:3: ..." that the hook's error function writes
    private static final Pattern POSITION = Pattern.compile("^(?:@([^ :]+:\\d+) |([^ :@]+:\\d+): )");

    private WhereFinder() {
    }

    static String where(LuaError error) {
        if (error instanceof ScriptError scriptError) {
            return scriptError.where();
        }
        String message = error.getMessage();
        if (message == null) {
            return null;
        }
        Matcher m = POSITION.matcher(message);
        return !m.find() ? null : m.group(1) != null ? m.group(1) : m.group(2);
    }
}
