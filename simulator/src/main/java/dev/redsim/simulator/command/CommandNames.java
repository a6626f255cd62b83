package dev.redsim.simulator.command;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The table's top-level commands by the bytes of their names, for dispatch: a client's command name is looked up
 * as sent, lower-cased on the fly while hashing and comparing (as Redis's dict of commands compares names without
 * case), where the lookup by String made two arrays and walked a TreeMap for every command. Immutable: the table
 * makes a new one when its commands change. A table declared from a {@link TableLayout} looks up through the
 * layout's {@link Slots}, made once per JVM, instead (decision 0047).
 */
final class CommandNames {
    private final Slots slots;
    /** The entries, by their position in the names the slots were made from. */
    private final CommandSpec[] specs;

    CommandNames(Map<String, CommandSpec> commands) {
        this.slots = new Slots(new ArrayList<>(commands.keySet()));
        this.specs = commands.values().toArray(new CommandSpec[0]);
    }

    /** The command whose name is these bytes in any ASCII case, or null. */
    CommandSpec find(byte[] name) {
        int position = slots.position(name);
        return position < 0 ? null : specs[position];
    }

    /** Open addressing over lower-case names: each name's position in the list it was made from. Immutable. */
    static final class Slots {
        private final byte[][] names;
        private final int[] positions;
        private final int mask;

        Slots(List<String> lowerCaseNames) {
            int capacity = Integer.highestOneBit(Math.max(4, lowerCaseNames.size() * 4) - 1) << 1; // under a quarter full
            names = new byte[capacity][];
            positions = new int[capacity];
            mask = capacity - 1;
            for (int position = 0; position < lowerCaseNames.size(); position++) {
                byte[] bytes = lowerCaseNames.get(position).getBytes(StandardCharsets.ISO_8859_1); // lowerAscii's chars are the bytes
                int at = hash(bytes) & mask;
                while (names[at] != null) {
                    at = (at + 1) & mask;
                }
                names[at] = bytes;
                positions[at] = position;
            }
        }

        /** The position of the name these bytes spell in any ASCII case, or -1. */
        int position(byte[] name) {
            int at = hash(name) & mask;
            for (byte[] stored = names[at]; stored != null; stored = names[at]) {
                if (sameName(stored, name)) {
                    return positions[at];
                }
                at = (at + 1) & mask;
            }
            return -1;
        }
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
