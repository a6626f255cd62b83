package dev.redsim.simulator.scripting;

import java.util.Map;

/** A library loaded by FUNCTION LOAD: its name, its whole code (shebang included) and its functions in order. */
public record FunctionLibrary(String name, byte[] code, Map<String, LibraryFunction> functions) {
    public static final String ENGINE = "LUA";
}
