package dev.redsim.simulator.protocol;

import dev.redsim.simulator.util.ChunkedBytes;

/**
 * A command whose value argument arrived in chunks (decision 0048): a string value of SET, SETNX, GETSET, SETEX or
 * PSETEX of at least one chunk's size. Its place among the arguments stays null until a reader needs the value in
 * one array ({@link #gathered}); the commands that store it keep the chunks, so that no array of the value's size
 * is made while other clients wait.
 */
public final class ChunkedCommand {
    private final byte[][] args;
    private final int index;
    private final ChunkedBytes value;

    ChunkedCommand(byte[][] args, int index, ChunkedBytes value) {
        this.args = args;
        this.index = index;
        this.value = value;
    }

    /**
     * Which argument of a command, named by its first argument, may stay in chunks: the string value the command
     * stores, or -1. Case-insensitive, as command names are.
     */
    static int valueIndex(byte[] name) {
        return switch (name.length) {
            case 3 -> is(name, "set") ? 2 : -1;
            case 5 -> is(name, "setnx") ? 2 : is(name, "setex") ? 3 : -1;
            case 6 -> is(name, "getset") ? 2 : is(name, "psetex") ? 3 : -1;
            default -> -1;
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

    /** The arguments; {@code args()[index()]} is null until {@link #gathered()} has run. */
    public byte[][] args() {
        return args;
    }

    public int index() {
        return index;
    }

    public ChunkedBytes value() {
        return value;
    }

    /** Whether the value is still only in chunks. */
    public boolean chunked() {
        return args[index] == null;
    }

    /** The arguments with the value in one array at its place (made on the first call): for readers that need it. */
    public byte[][] gathered() {
        if (args[index] == null) {
            args[index] = value.toArray();
        }
        return args;
    }
}
