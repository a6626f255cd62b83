package dev.redsim.simulator.protocol;

import dev.redsim.simulator.util.ChunkedBytes;

/**
 * A command whose string values arrived in chunks (decision 0048): the value SET, SETNX, GETSET, SETEX or PSETEX
 * stores, or MSET's and MSETNX's values, each of at least one chunk's size. Such a value's place among the arguments
 * stays null until a reader needs it in one array ({@link #gathered}); the commands that store it keep the chunks, so
 * that no array of the value's size is made while other clients wait.
 */
public final class ChunkedCommand {
    private final byte[][] args;
    /** Parallel to {@link #args}: the chunks of each argument that came in chunks, null elsewhere. */
    private final ChunkedBytes[] values;

    ChunkedCommand(byte[][] args, ChunkedBytes[] values) {
        this.args = args;
        this.values = values;
    }

    /**
     * Whether argument {@code index} of a command named {@code name} is a string value the command stores (and so may
     * stay in chunks). Case-insensitive, as command names are.
     */
    static boolean storesValueAt(byte[] name, int index) {
        return switch (name.length) {
            case 3 -> index == 2 && is(name, "set");
            case 4 -> index >= 2 && index % 2 == 0 && is(name, "mset");
            case 5 -> index == 2 && is(name, "setnx") || index == 3 && is(name, "setex");
            case 6 -> index == 2 && is(name, "getset") || index == 3 && is(name, "psetex")
                    || index >= 2 && index % 2 == 0 && is(name, "msetnx");
            default -> false;
        };
    }

    private static boolean is(byte[] name, String lower) {
        for (int i = 0; i < name.length; i++) {
            int c = name[i] | 0x20; // ASCII letters only: any other byte cannot match a letter after this
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The arguments; an argument still only in chunks is null (see {@link #value}). */
    public byte[][] args() {
        return args;
    }

    /** Argument {@code i}'s chunks while it is only in them, else null. */
    public ChunkedBytes value(int i) {
        return args[i] == null ? values[i] : null;
    }

    /** The arguments with every value in one array at its place (made on the first call): for readers that need it. */
    public byte[][] gathered() {
        for (int i = 0; i < args.length; i++) {
            if (args[i] == null) {
                args[i] = values[i].toArray();
            }
        }
        return args;
    }
}
