package dev.redsim.simulator.command;

import dev.redsim.simulator.util.ByteText;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one command table: the simulator's handlers bound to what Redis reports about each command (the
 * {@link CommandCatalog}). Only bound commands are here: they are what COMMAND, COMMAND COUNT and COMMAND LIST
 * report and what dispatch finds; a command Redis has and the simulator lacks answers "unknown command", and
 * its description stays reachable through {@link #catalog()}. Lookup is case-insensitive on the raw name bytes;
 * subcommands hang off their container.
 */
public final class CommandTable {
    private final CommandCatalog catalog;
    private final Map<String, CommandSpec> commands = new TreeMap<>();

    public CommandTable() {
        this(CommandCatalog.redis70());
    }

    public CommandTable(CommandCatalog catalog) {
        this.catalog = catalog;
    }

    /** What Redis reports about every command of its version, implemented here or not. */
    public CommandCatalog catalog() {
        return catalog;
    }

    /** Binds the handler of a command ("lpush") or subcommand ("config|get"), which Redis must know. */
    public void handler(String fullName, CommandHandler handler) {
        handler(fullName, handler, null);
    }

    /**
     * Binds a handler with a key procedure of its own: only for the commands for which Redis keeps a
     * getkeys_proc because their key specs cannot say it all (see {@link KeyProcedure}).
     */
    public void handler(String fullName, CommandHandler handler, KeyProcedure keyProcedure) {
        CommandDescription description = catalog.describe(fullName);
        if (description == null) {
            throw new IllegalStateException("no command '" + fullName + "' in the table of Redis " + catalog.redisVersion());
        }
        if (description.container() == null && !description.subcommands().isEmpty()) {
            // A container: its own handler answers the call without a subcommand (bare COMMAND), if Redis's arity allows one.
            container(fullName).bindHandler(handler);
            return;
        }
        CommandSpec spec = new CommandSpec(description, handler, keyProcedure);
        if (description.container() == null) {
            if (commands.putIfAbsent(fullName, spec) != null) {
                throw new IllegalStateException("handler bound twice: " + fullName);
            }
            return;
        }
        container(description.container()).addSubcommand(spec);
    }

    private CommandSpec container(String name) {
        return commands.computeIfAbsent(name, c -> new CommandSpec(catalog.describe(c), null, null));
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

    /** "get" or "config|get", any case; null when not implemented. */
    public CommandSpec lookupFullName(String fullName) {
        int bar = fullName.indexOf('|');
        if (bar < 0) {
            return lookup(fullName);
        }
        CommandSpec container = lookup(fullName.substring(0, bar));
        return container == null ? null : container.subcommands().get(fullName.substring(bar + 1).toLowerCase());
    }

    /** All implemented top-level commands in name order. */
    public Collection<CommandSpec> all() {
        return Collections.unmodifiableCollection(commands.values());
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
        return ByteText.decode(arg);
    }
}
