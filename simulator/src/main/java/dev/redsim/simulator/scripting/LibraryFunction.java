package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaValue;

import java.util.List;

/**
 * One function a library registered: its name, its Lua callback, its description (null when none) and its
 * flags in Redis's order (no-writes, allow-oom, allow-stale, no-cluster, allow-cross-slot-keys), and whether it
 * provably ends soon ({@link ShortScripts}: it then runs on the engine thread).
 */
public record LibraryFunction(String name, LuaValue callback, byte[] description, List<String> flags,
        String library, boolean provablyShort) {
    public LibraryFunction(String name, LuaValue callback, byte[] description, List<String> flags, String library) {
        this(name, callback, description, flags, library, ShortScripts.provablyShort(callback));
    }

    /** As a script's shebang flags: refused under maxmemory unless allow-oom or no-writes (scriptFlagsToCmdFlags). */
    public boolean denyOom() {
        return !flags.contains("allow-oom") && !noWrites();
    }

    public boolean allowOom() {
        return flags.contains("allow-oom");
    }

    public boolean noCluster() {
        return flags.contains("no-cluster");
    }

    public boolean allowCrossSlot() {
        return flags.contains("allow-cross-slot-keys");
    }

    public boolean noWrites() {
        return flags.contains("no-writes");
    }
}
