package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaError;

/** Reads the script position in front of an error's message ("@user_script:3 ..." or "user_script:3: ..."). */
final class WhereFinder {
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
        return LuaPositions.where(message);
    }
}
