package dev.redsim.simulator.scripting;

/** Lua 5.1's wording for the runtime errors luaj (Lua 5.2) words differently; filled in below. */
final class LuaErrorTexts {
    private LuaErrorTexts() {
    }

    static String lua51(String message) {
        return message;
    }
}
