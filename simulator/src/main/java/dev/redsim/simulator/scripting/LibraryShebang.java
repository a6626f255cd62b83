package dev.redsim.simulator.scripting;

import dev.redsim.simulator.error.RedisError;

import java.nio.charset.StandardCharsets;

/**
 * The "#!lua name=mylib" first line of a library (Redis 7.0's functionExtractLibMetaData): the engine, the
 * library name, and where the Lua code starts (at the line's newline, so line numbers stay right).
 */
record LibraryShebang(String engine, String name, int codeStart) {

    static LibraryShebang parse(byte[] code) {
        if (code.length < 2 || code[0] != '#' || code[1] != '!') {
            throw new RedisError("ERR Missing library metadata");
        }
        int end = 0;
        while (end < code.length && code[end] != '\n') {
            end++;
        }
        if (end == code.length) {
            throw new RedisError("ERR Invalid library metadata");
        }
        String[] parts = new String(code, 0, end, StandardCharsets.ISO_8859_1).trim().split("[ \t\r]+");
        String engine = parts[0].substring(2);
        String name = null;
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].regionMatches(true, 0, "name=", 0, 5)) {
                if (name != null) {
                    throw new RedisError("ERR Invalid metadata value, name argument was given multiple times");
                }
                name = parts[i].substring(5);
                continue;
            }
            throw new RedisError("ERR Invalid metadata value given: " + parts[i]);
        }
        if (name == null) {
            throw new RedisError("ERR Library name was not given");
        }
        return new LibraryShebang(engine, name, end);
    }

    /** Library and function names: letters, digits and underscores, at least one. */
    static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }
}
