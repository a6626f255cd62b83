package dev.redsim.simulator.command;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The table's top-level commands by the bytes of their names, for dispatch: a client's command name is looked up
 * as sent, lower-cased on the fly while hashing and comparing (as Redis's dict of commands compares names without
 * case), where the lookup by String made two arrays and walked a TreeMap for every command. Immutable: the table
 * makes a new one when its commands change.
 */
final class CommandNames {
    private final byte[][] names;
    private final CommandSpec[] specs;
    private final int mask;

    CommandNames(Map<String, CommandSpec> commands) {
        int capacity = Integer.highestOneBit(Math.max(4, commands.size() * 4) - 1) << 1; // under a quarter full
        names = new byte[capacity][];
        specs = new CommandSpec[capacity];
        mask = capacity - 1;
        commands.forEach((name, spec) -> {
            byte[] bytes = name.getBytes(StandardCharsets.ISO_8859_1); // lowerAscii's chars are the bytes
            int at = hash(bytes) & mask;
            while (names[at] != null) {
                at = (at + 1) & mask;
            }
            names[at] = bytes;
            specs[at] = spec;
        });
    }

    /** The command whose name is these bytes in any ASCII case, or null. */
    CommandSpec find(byte[] name) {
        int at = hash(name) & mask;
        for (byte[] stored = names[at]; stored != null; stored = names[at]) {
            if (sameName(stored, name)) {
                return specs[at];
            }
            at = (at + 1) & mask;
        }
        return null;
    }

    private static int lower(byte b) {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }

    private static int hash(byte[] name) {
        int h = 0;
        for (byte b : name) {
            h = 31 * h + lower(b);
        }
        return h ^ (h >>> 16);
    }

    private static boolean sameName(byte[] stored, byte[] name) {
        if (stored.length != name.length) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (stored[i] != lower(name[i])) {
                return false;
            }
        }
        return true;
    }
}
