package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaValue;

import java.util.List;

/**
 * One function a library registered: its name, its Lua callback, its description (null when none) and its
 * flags in Redis's order (no-writes, allow-oom, allow-stale, no-cluster, allow-cross-slot-keys).
 */
public record LibraryFunction(String name, LuaValue callback, byte[] description, List<String> flags,
        String library) {
    public boolean noWrites() {
        return flags.contains("no-writes");
    }
}
