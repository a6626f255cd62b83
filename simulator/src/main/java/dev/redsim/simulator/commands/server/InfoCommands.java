package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.scripting.Scripting;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * INFO [section ...]: the sections Redis 7.0 prints, in its order, built by {@link InfoSections}. Without
 * arguments (or with "default") the default sections; "all" adds commandstats and latencystats; "everything"
 * adds module sections too (none here). Unknown section names print nothing.
 */
public final class InfoCommands implements CommandFamily {
    /** Every section in print order. */
    static final List<String> ORDER = List.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "modules", "commandstats", "errorstats", "latencystats", "cluster", "keyspace");
    private static final Set<String> NOT_DEFAULT = Set.of("commandstats", "latencystats");

    private final Scripting scripting;

    /** @param scripting this server's Lua runtime, whose memory INFO reports */
    public InfoCommands(Scripting scripting) {
        this.scripting = scripting;
    }

    @Override
    public void register(CommandTable t) {
        t.handler("info", this::info);
    }

    private void info(CommandContext ctx) {
        Set<String> wanted = selectedSections(ctx);
        InfoSections sections = new InfoSections(ctx.engine(), scripting);
        StringBuilder out = new StringBuilder(2048);
        for (String section : ORDER) {
            if (wanted.contains(section)) {
                if (out.length() > 0) {
                    out.append("\r\n");
                }
                sections.append(section, out);
            }
        }
        ctx.reply().verbatim(out.toString());
    }

    private static Set<String> selectedSections(CommandContext ctx) {
        Set<String> wanted = new HashSet<>();
        if (ctx.argc() == 1) {
            addDefault(wanted);
            return wanted;
        }
        for (int i = 1; i < ctx.argc(); i++) {
            String name = ctx.text(i).toLowerCase();
            switch (name) {
                case "default" -> addDefault(wanted);
                case "all", "everything" -> wanted.addAll(ORDER);
                default -> wanted.add(name);
            }
        }
        return wanted;
    }

    private static void addDefault(Set<String> wanted) {
        for (String section : ORDER) {
            if (!NOT_DEFAULT.contains(section)) {
                wanted.add(section);
            }
        }
    }
}
