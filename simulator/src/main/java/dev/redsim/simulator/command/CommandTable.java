package dev.redsim.simulator.command;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one command table. Lookup is case-insensitive on the raw name bytes; subcommands hang off their
 * container. Everything that describes commands (COMMAND, docs/commands.md) reads from here.
 */
public final class CommandTable {
    private final Map<String, CommandSpec> commands = new HashMap<>();

    public void add(CommandSpec spec) {
        if (spec.container() != null) {
            CommandSpec parent = commands.get(spec.container());
            if (parent == null) {
                throw new IllegalStateException("container " + spec.container() + " must be added before " + spec.name());
            }
            parent.addSubcommand(spec);
            return;
        }
        if (commands.putIfAbsent(spec.name(), spec) != null) {
            throw new IllegalStateException("command added twice: " + spec.name());
        }
    }

    /** The command named by these bytes (any case), or null. */
    public CommandSpec lookup(byte[] name) {
        if (name.length > 32) {
            return null;
        }
        return commands.get(lowerAscii(name));
    }

    public CommandSpec lookup(String name) {
        return commands.get(name.toLowerCase());
    }

    /** All top-level commands in name order. */
    public Collection<CommandSpec> all() {
        return Collections.unmodifiableCollection(new TreeMap<>(commands).values());
    }

    public int size() {
        return commands.size();
    }

    public static String lowerAscii(byte[] name) {
        char[] chars = new char[name.length];
        for (int i = 0; i < name.length; i++) {
            int c = name[i] & 0xff;
            chars[i] = (char) (c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        return new String(chars);
    }

    public static String text(byte[] arg) {
        return new String(arg, StandardCharsets.UTF_8);
    }
}
