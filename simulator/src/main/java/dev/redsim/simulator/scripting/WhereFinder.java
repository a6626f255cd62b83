package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaError;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the script position luaj puts in front of an error's message ("@user_script:3 ..."). */
final class WhereFinder {
    private static final Pattern POSITION = Pattern.compile("^@([^ :]+:\\d+) ");

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
        return m.find() ? m.group(1) : null;
    }
}
