package dev.redsim.simulator.command;

import dev.redsim.simulator.util.ByteText;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

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
    /** The commands by the bytes of their names (dispatch's lookup), made again after the commands change. */
    private volatile CommandNames nameIndex;
    /** The entries of a table declared from a layout (decision 0047), else null and the entries are {@link #commands}. */
    private LayoutEntries fromLayout;
    /** Families declared by name, bound on first use (decision 0026); in declaration order. */
    private final List<FamilyBinding> declared = new ArrayList<>();
    /** The family whose registration runs now (under this table's lock), or null for eager registration. */
    private FamilyBinding binding;

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
        if (binding != null) {
            bindDeclared(fullName, handler, keyProcedure);
            return;
        }
        refuseAfterLayout();
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
            nameIndex = null;
            return;
        }
        container(description.container()).addSubcommand(spec);
    }

    /**
     * Declares a family by the commands it binds ("get", "config|get", "command" for a container's own handler):
     * the entries are in the table at once (dispatch, COMMAND, the ACL read them), and {@code family} is made and
     * registered the first time one of their handlers or key procedures is needed. Its registration must bind
     * exactly these names.
     */
    public void declare(String familyName, List<String> fullNames, Supplier<CommandFamily> family) {
        refuseAfterLayout();
        FamilyBinding declaredFamily = new FamilyBinding(familyName, fullNames, family);
        for (String fullName : declaredFamily.fullNames()) {
            CommandDescription description = catalog.describe(fullName);
            if (description == null) {
                throw new IllegalStateException("no command '" + fullName + "' in the table of Redis " + catalog.redisVersion());
            }
            if (description.container() == null && !description.subcommands().isEmpty()) {
                container(fullName).declaredBy(declaredFamily, this);
            } else if (description.container() == null) {
                CommandSpec spec = new CommandSpec(description, null, null, declaredFamily, this);
                if (commands.putIfAbsent(fullName, spec) != null) {
                    throw new IllegalStateException("handler declared twice: " + fullName);
                }
                nameIndex = null;
            } else {
                container(description.container())
                        .addSubcommand(new CommandSpec(description, null, null, declaredFamily, this));
            }
        }
        declared.add(declaredFamily);
    }

    /**
     * Declares every family of a layout at once, into a table that has no entry yet: the same entries as declaring
     * the layout's families one by one, each made the first time it is asked for from what the layout worked out once
     * per JVM, looked up through the layout's name index (decision 0047). {@code families.get(i)} makes the layout's
     * i-th family when one of its commands is first needed; the entries, their counters and the bindings are this
     * table's own. Nothing can be declared or bound outside the families afterwards.
     */
    public void declare(TableLayout layout, List<Supplier<CommandFamily>> families) {
        if (layout.catalog() != catalog) {
            throw new IllegalArgumentException("a layout of another catalog");
        }
        if (!commands.isEmpty() || !declared.isEmpty()) {
            throw new IllegalStateException("a layout is declared into an empty table");
        }
        List<TableLayout.Family> layoutFamilies = layout.families();
        if (families.size() != layoutFamilies.size()) {
            throw new IllegalArgumentException(families.size() + " families for a layout of " + layoutFamilies.size());
        }
        FamilyBinding[] bindings = new FamilyBinding[families.size()];
        for (int i = 0; i < bindings.length; i++) {
            TableLayout.Family family = layoutFamilies.get(i);
            bindings[i] = new FamilyBinding(family.name(), family.fullNames(), families.get(i));
            declared.add(bindings[i]);
        }
        fromLayout = new LayoutEntries(layout, bindings, this);
    }

    private void refuseAfterLayout() {
        if (fromLayout != null) {
            throw new IllegalStateException("this table is declared from a layout: its families bind all it has");
        }
    }

    /** Runs a declared family's registration, once; any thread (the engine's, a script's) may ask first. */
    synchronized void bind(FamilyBinding family) {
        if (family.bound()) {
            return;
        }
        binding = family;
        try {
            family.create().register(this);
        } finally {
            binding = null;
        }
        for (String fullName : family.fullNames()) {
            CommandSpec spec = lookupFullName(fullName);
            if (spec.handlerIfBound() == null) {
                throw new IllegalStateException(family.name() + " declares '" + fullName + "' but does not bind it");
            }
        }
        family.markBound();
    }

    private void bindDeclared(String fullName, CommandHandler handler, KeyProcedure keyProcedure) {
        CommandSpec spec = lookupFullName(fullName);
        if (spec == null || spec.family() != binding) {
            throw new IllegalStateException(binding.name() + " binds '" + fullName + "', which it does not declare");
        }
        spec.bindDeclared(handler, keyProcedure);
    }

    /** The names of the declared families bound so far (each binds on its first use). */
    public synchronized Set<String> boundFamilies() {
        Set<String> names = new HashSet<>();
        for (FamilyBinding family : declared) {
            if (family.bound()) {
                names.add(family.name());
            }
        }
        return names;
    }

    private CommandSpec container(String name) {
        CommandSpec container = commands.get(name);
        if (container == null) {
            container = new CommandSpec(catalog.describe(name), null, null);
            commands.put(name, container);
            nameIndex = null;
        }
        return container;
    }

    /** The command named by these bytes (any case), or null. */
    public CommandSpec lookup(byte[] name) {
        if (name.length > 32) {
            return null;
        }
        if (fromLayout != null) {
            return fromLayout.find(name);
        }
        CommandNames index = nameIndex;
        if (index == null) {
            index = new CommandNames(commands); // the table is declared before the server serves anyone
            nameIndex = index;
        }
        return index.find(name);
    }

    public CommandSpec lookup(String name) {
        if (fromLayout != null) {
            return fromLayout.find(name);
        }
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
        return fromLayout != null ? fromLayout.all() : Collections.unmodifiableCollection(commands.values());
    }

    public int size() {
        return fromLayout != null ? fromLayout.size() : commands.size();
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
