package dev.redsim.simulator.commands;

import dev.redsim.simulator.keyspace.Numbers;

/** Key positions for commands that name their keys with a numkeys argument (ZMPOP, ZUNION, ZUNIONSTORE...). */
final class NumkeysKeys {
    private NumkeysKeys() {
    }

    /**
     * The indexes of the keys after args[numkeysIndex], preceded by {@code leading} keys right after the command
     * name (1 for a destination key). Stops at the end of the arguments when numkeys claims more.
     */
    static int[] find(byte[][] args, int numkeysIndex, int leading) {
        Long numkeys = numkeysIndex < args.length ? Numbers.parseLongStrict(args[numkeysIndex]) : null;
        int n = numkeys == null || numkeys < 0 ? 0 : (int) Math.min(numkeys, args.length - numkeysIndex - 1);
        int[] keys = new int[leading + n];
        for (int i = 0; i < leading; i++) {
            keys[i] = 1 + i;
        }
        for (int i = 0; i < n; i++) {
            keys[leading + i] = numkeysIndex + 1 + i;
        }
        return keys;
    }
}
