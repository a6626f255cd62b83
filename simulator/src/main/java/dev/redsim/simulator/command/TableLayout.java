package dev.redsim.simulator.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a table declared from a list of families holds, worked out once per catalog: every entry's description,
 * flag bits, key range, full name and declaring family, top-level commands and each container's subcommands in name
 * order, and the name index dispatch looks commands up in. Immutable, so every simulator of the JVM that declares the
 * same families reads the same layout; a table makes only its own entries from it, which hold what is its own (the
 * commandstats counters, the handlers its families bind). A later start had made all of this again, ~370 entries,
 * on the starting thread, and the name index on the loop's thread at the first command (decision 0047).
 */
public final class TableLayout {
    /**
     * One entry: a command, a container (its own handler declared or not) or a subcommand.
     *
     * @param family index of the declaring family in {@link #families()}, or -1 for a container nobody's handler answers
     */
    record Entry(CommandDescription description, String fullName, long flagBits, KeyRange keyRange, int family,
                 List<Entry> subcommands) {
    }

    /** A family's name and the commands it declares, in declaration order. */
    public record Family(String name, List<String> fullNames) {
    }

    private final CommandCatalog catalog;
    private final List<Map.Entry<String, List<String>>> declarations;
    private final List<Family> families;
    private final List<Entry> commands;
    private final CommandNames.Slots nameSlots;

    private TableLayout(CommandCatalog catalog, List<Map.Entry<String, List<String>>> declarations,
            List<Family> families, List<Entry> commands) {
        this.catalog = catalog;
        this.declarations = declarations;
        this.families = families;
        this.commands = commands;
        List<String> names = new ArrayList<>(commands.size());
        for (Entry command : commands) {
            names.add(command.description().name());
        }
        this.nameSlots = new CommandNames.Slots(names);
    }

    /**
     * The layout of {@code declarations} (family name and the commands it binds, as {@code CommandTable.declare} takes
     * them) over {@code catalog}: made once per catalog and kept by it, made anew for any other list.
     */
    public static TableLayout of(CommandCatalog catalog, List<Map.Entry<String, List<String>>> declarations) {
        TableLayout kept = catalog.derived(TableLayout.class, new Maker(declarations));
        return kept.declarations == declarations ? kept : make(catalog, declarations);
    }

    /** Makes the layout of a catalog (a class, not a lambda: the first start of a JVM makes it). */
    private static final class Maker implements java.util.function.Function<CommandCatalog, TableLayout> {
        private final List<Map.Entry<String, List<String>>> declarations;

        Maker(List<Map.Entry<String, List<String>>> declarations) {
            this.declarations = declarations;
        }

        @Override
        public TableLayout apply(CommandCatalog catalog) {
            return make(catalog, declarations);
        }
    }

    private static TableLayout make(CommandCatalog catalog, List<Map.Entry<String, List<String>>> declarations) {
        // the same walk as declaring family by family (CommandTable.declare), with the same refusals
        Map<String, Builder> top = new TreeMap<>();
        List<Family> families = new ArrayList<>();
        for (Map.Entry<String, List<String>> declared : declarations) {
            int family = families.size();
            families.add(new Family(declared.getKey(), List.copyOf(declared.getValue())));
            for (String fullName : declared.getValue()) {
                CommandDescription description = catalog.describe(fullName);
                if (description == null) {
                    throw new IllegalStateException("no command '" + fullName + "' in the table of Redis "
                            + catalog.redisVersion());
                }
                if (description.container() == null && !description.subcommands().isEmpty()) {
                    Builder container = top.get(description.name());
                    if (container == null) {
                        container = new Builder(description);
                        top.put(description.name(), container);
                    }
                    if (container.family >= 0) {
                        throw new IllegalStateException("handler declared twice: " + fullName);
                    }
                    container.family = family;
                } else if (description.container() == null) {
                    Builder command = new Builder(description);
                    command.family = family;
                    if (top.putIfAbsent(description.name(), command) != null) {
                        throw new IllegalStateException("handler declared twice: " + fullName);
                    }
                } else {
                    Builder container = top.get(description.container());
                    if (container == null) {
                        container = new Builder(catalog.describe(description.container()));
                        top.put(description.container(), container);
                    }
                    Builder sub = new Builder(description);
                    sub.family = family;
                    if (container.subcommands.putIfAbsent(description.name(), sub) != null) {
                        throw new IllegalStateException("handler bound twice: " + description.fullName());
                    }
                }
            }
        }
        List<Entry> commands = new ArrayList<>(top.size());
        for (Builder command : top.values()) {
            commands.add(command.entry());
        }
        return new TableLayout(catalog, declarations, List.copyOf(families), Collections.unmodifiableList(commands));
    }

    /** An entry under construction: subcommands gathered by name. */
    private static final class Builder {
        final CommandDescription description;
        int family = -1;
        final Map<String, Builder> subcommands = new TreeMap<>();

        Builder(CommandDescription description) {
            this.description = description;
        }

        Entry entry() {
            List<Entry> subs = new ArrayList<>(subcommands.size());
            for (Builder sub : subcommands.values()) {
                subs.add(sub.entry());
            }
            long bits = 0;
            for (CommandFlag flag : description.flags()) {
                bits |= 1L << flag.ordinal();
            }
            return new Entry(description, description.fullName(), bits, KeyRange.of(description.keySpecs()), family,
                    Collections.unmodifiableList(subs));
        }
    }

    CommandCatalog catalog() {
        return catalog;
    }

    /** The families, in declaration order. */
    public List<Family> families() {
        return families;
    }

    /** The top-level entries, in name order. */
    List<Entry> commands() {
        return commands;
    }

    /** Where dispatch finds each top-level entry by its name's bytes: positions in {@link #commands()}. */
    CommandNames.Slots nameSlots() {
        return nameSlots;
    }
}
