package dev.redsim.simulator.scripting;

import dev.redsim.simulator.error.RedisError;

import java.nio.charset.StandardCharsets;

/**
 * The "#!lua flags=no-writes,allow-oom" first line of a script (Redis 7.0): which flags it declares and how
 * long the line is (the body compiles from the line end on, so line numbers stay right).
 */
record ScriptFlags(boolean shebang, boolean noWrites, boolean allowOom, boolean noCluster, boolean allowCrossSlot,
                   int shebangLength) {
    static final ScriptFlags NONE = new ScriptFlags(false, false, false, false, false, 0);

    /**
     * Whether the script may touch keys of several slots of its node (SCRIPT_ALLOW_CROSS_SLOT): declared with
     * allow-cross-slot-keys, or a script without a shebang, which Redis 7.0 runs as scripts ran before flags existed.
     */
    boolean crossSlotAllowed() {
        return !shebang || allowCrossSlot;
    }

    /**
     * Whether a call of the script may grow memory, so that it is refused under maxmemory before it runs (Redis's
     * scriptFlagsToCmdFlags): a script with a shebang is, unless it declares allow-oom or no-writes; one without
     * keeps its command's flags (EVAL is not denyoom: its writes are checked one by one).
     */
    boolean denyOom() {
        return shebang && !allowOom && !noWrites;
    }

    static ScriptFlags parse(byte[] body) {
        if (body.length < 2 || body[0] != '#' || body[1] != '!') {
            return NONE;
        }
        int end = indexOf(body, (byte) '\n');
        if (end < 0) {
            throw new RedisError("ERR Invalid script shebang");
        }
        String[] parts = new String(body, 0, end, StandardCharsets.UTF_8).trim().split(" +");
        if (!parts[0].equals("#!lua")) {
            throw new RedisError("ERR Unexpected engine in script shebang: " + parts[0]);
        }
        boolean noWrites = false;
        boolean allowOom = false;
        boolean noCluster = false;
        boolean allowCrossSlot = false;
        for (int i = 1; i < parts.length; i++) {
            if (!parts[i].startsWith("flags=")) {
                throw new RedisError("ERR Unknown lua shebang option: " + parts[i]);
            }
            for (String flag : parts[i].substring("flags=".length()).split(",")) {
                switch (flag) {
                    case "" , "allow-stale" -> { }
                    case "no-cluster" -> noCluster = true;
                    case "allow-cross-slot-keys" -> allowCrossSlot = true;
                    case "allow-oom" -> allowOom = true;
                    case "no-writes" -> noWrites = true;
                    default -> throw new RedisError("ERR Unexpected flag in script shebang: " + flag);
                }
            }
        }
        return new ScriptFlags(true, noWrites, allowOom, noCluster, allowCrossSlot, end);
    }

    private static int indexOf(byte[] body, byte b) {
        for (int i = 0; i < body.length; i++) {
            if (body[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
