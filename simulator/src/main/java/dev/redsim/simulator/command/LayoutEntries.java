package dev.redsim.simulator.command;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A table's own entries over a shared {@link TableLayout}, each made the first time it is asked for: a start then
 * makes no entry at all (a test's first commands need a handful of the ~370), where making them all was most of a
 * later start's declaration of the table (decision 0047). An entry holds what is this table's own (its commandstats
 * counters, the handler its family binds); everything else it reads from the layout.
 *
 * <p>Any thread may ask (the engine's, a script's): an entry is published once, so that every thread sees the same
 * one; two threads that make it at once keep the first one published and drop the other, which nobody saw.
 */
final class LayoutEntries {
    private final TableLayout layout;
    private final FamilyBinding[] families;
    private final CommandTable table;
    private final AtomicReferenceArray<CommandSpec> entries;

    LayoutEntries(TableLayout layout, FamilyBinding[] families, CommandTable table) {
        this.layout = layout;
        this.families = families;
        this.table = table;
        this.entries = new AtomicReferenceArray<>(layout.commands().size());
    }

    /** The top-level entry whose name is these bytes in any ASCII case, or null. */
    CommandSpec find(byte[] name) {
        int position = layout.nameSlots().position(name);
        return position < 0 ? null : entry(position);
    }

    /** The top-level entry of this name in any case, or null. */
    CommandSpec find(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) > 0x7f) {
                return null; // no command has such a name; its ISO-8859-1 bytes would read as another
            }
        }
        return find(name.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Every top-level entry, in name order (made now where not made yet). */
    List<CommandSpec> all() {
        List<CommandSpec> all = new ArrayList<>(entries.length());
        for (int position = 0; position < entries.length(); position++) {
            all.add(entry(position));
        }
        return Collections.unmodifiableList(all);
    }

    int size() {
        return entries.length();
    }

    private CommandSpec entry(int position) {
        CommandSpec made = entries.get(position);
        if (made != null) {
            return made;
        }
        TableLayout.Entry shape = layout.commands().get(position);
        CommandSpec entry = new CommandSpec(shape, family(shape), table);
        for (TableLayout.Entry sub : shape.subcommands()) {
            entry.addSubcommand(new CommandSpec(sub, family(sub), table));
        }
        return entries.compareAndSet(position, null, entry) ? entry : entries.get(position);
    }

    private FamilyBinding family(TableLayout.Entry shape) {
        return shape.family() < 0 ? null : families[shape.family()];
    }
}
