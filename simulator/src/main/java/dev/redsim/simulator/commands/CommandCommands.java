package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.AclCategories;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.RedisError;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.util.GlobMatcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.redsim.simulator.command.CommandSpec.command;
import static dev.redsim.simulator.command.CommandSpec.subcommand;

/**
 * COMMAND and its subcommands: everything they print is read from the one command table, so a command added
 * anywhere in the simulator describes itself here without further work.
 */
public final class CommandCommands implements CommandFamily {
    private static final String FLAGS = "loading stale";

    @Override
    public void register(CommandTable t) {
        t.add(command("command", -1).flags(FLAGS).group("server").since("2.8.13").acl("connection")
                .tips("nondeterministic_output_order")
                .summary("Describe every command of the server").handler(this::all).build());
        t.add(subcommand("command", "count", 2).flags(FLAGS).group("server").since("2.8.13").acl("connection")
                .summary("Count the commands of the server")
                .handler(ctx -> ctx.reply().integer(ctx.engine().table().size())).build());
        t.add(subcommand("command", "info", -2).flags(FLAGS).group("server").since("2.8.13").acl("connection")
                .tips("nondeterministic_output_order")
                .summary("Describe the named commands").handler(this::info).build());
        t.add(subcommand("command", "docs", -2).flags(FLAGS).group("server").since("7.0.0").acl("connection")
                .tips("nondeterministic_output_order")
                .summary("Documentation of the named commands").handler(this::docs).build());
        t.add(subcommand("command", "getkeys", -4).flags(FLAGS).group("server").since("2.8.13").acl("connection")
                .summary("Extract the key names of a full command").handler(ctx -> getKeys(ctx, false)).build());
        t.add(subcommand("command", "getkeysandflags", -4).flags(FLAGS).group("server").since("7.0.0")
                .acl("connection").summary("Extract the key names of a full command, with their access flags")
                .handler(ctx -> getKeys(ctx, true)).build());
        t.add(subcommand("command", "list", -2).flags(FLAGS).group("server").since("7.0.0").acl("connection")
                .tips("nondeterministic_output_order")
                .summary("List command names, optionally filtered").handler(this::list).build());
        t.add(subcommand("command", "help", 2).flags(FLAGS).group("server").since("5.0.0").acl("connection")
                .summary("Describe the COMMAND subcommands").handler(this::help).build());
    }

    // ---- COMMAND, COMMAND INFO ----

    private void all(CommandContext ctx) {
        var commands = ctx.engine().table().all();
        ctx.reply().array(commands.size());
        for (CommandSpec spec : commands) {
            CommandInfoWriter.write(ctx.reply(), spec);
        }
    }

    private void info(CommandContext ctx) {
        if (ctx.argc() == 2) {
            all(ctx);
            return;
        }
        Reply r = ctx.reply();
        r.array(ctx.argc() - 2);
        for (int i = 2; i < ctx.argc(); i++) {
            CommandSpec spec = byFullName(ctx.engine().table(), ctx.text(i));
            if (spec == null) {
                r.nullBulk();
            } else {
                CommandInfoWriter.write(r, spec);
            }
        }
    }

    /** "get" or "config|get", any case; null when unknown. */
    static CommandSpec byFullName(CommandTable table, String name) {
        int bar = name.indexOf('|');
        if (bar < 0) {
            return table.lookup(name);
        }
        CommandSpec container = table.lookup(name.substring(0, bar));
        if (container == null) {
            return null;
        }
        return container.subcommands().get(name.substring(bar + 1).toLowerCase());
    }

    // ---- COMMAND DOCS ----

    private void docs(CommandContext ctx) {
        List<CommandSpec> found = new ArrayList<>();
        if (ctx.argc() == 2) {
            found.addAll(ctx.engine().table().all());
        } else {
            for (int i = 2; i < ctx.argc(); i++) {
                CommandSpec spec = byFullName(ctx.engine().table(), ctx.text(i));
                if (spec != null) {
                    found.add(spec);
                }
            }
        }
        Reply r = ctx.reply();
        r.map(found.size());
        for (CommandSpec spec : found) {
            r.bulk(spec.fullName());
            writeDoc(r, spec);
        }
    }

    /** summary, since, group and, for containers, the subcommands' docs (what redis-cli reads for its hints). */
    private static void writeDoc(Reply r, CommandSpec spec) {
        boolean container = spec.hasSubcommands();
        r.map(container ? 4 : 3);
        r.bulk("summary");
        r.bulk(spec.summary());
        r.bulk("since");
        r.bulk(spec.since());
        r.bulk("group");
        r.bulk(spec.group());
        if (container) {
            r.bulk("subcommands");
            r.map(spec.subcommands().size());
            for (CommandSpec sub : spec.subcommands().values()) {
                r.bulk(sub.fullName());
                writeDoc(r, sub);
            }
        }
    }

    // ---- COMMAND GETKEYS / GETKEYSANDFLAGS ----

    private void getKeys(CommandContext ctx, boolean withFlags) {
        byte[][] call = Arrays.copyOfRange(ctx.args(), 2, ctx.argc());
        CommandSpec spec = ctx.engine().table().lookup(call[0]);
        if (spec != null && spec.hasSubcommands()) {
            spec = call.length >= 2 ? spec.subcommands().get(CommandTable.lowerAscii(call[1])) : null;
        }
        if (spec == null) {
            throw new RedisError("ERR Invalid command specified");
        }
        // Arguments whose key spec is marked not_key (shard channels) are not keys here, as in doesCommandHaveKeys.
        boolean notKey = spec.keySpecFlags() != null && spec.keySpecFlags().contains("not_key");
        if ((spec.firstKey() <= 0 || notKey) && !spec.movableKeys()) {
            throw new RedisError("ERR The command has no key arguments");
        }
        if (!spec.arityAccepts(call.length)) {
            throw new RedisError("ERR Invalid number of arguments specified for command");
        }
        int[] keys = spec.keyIndexes(call);
        Reply r = ctx.reply();
        r.array(keys.length);
        for (int index : keys) {
            if (withFlags) {
                r.array(2);
                r.bulk(call[index]);
                List<String> flags = CommandInfoWriter.keySpecFlags(spec);
                r.set(flags.size());
                for (String flag : flags) {
                    r.simple(flag);
                }
            } else {
                r.bulk(call[index]);
            }
        }
    }

    // ---- COMMAND LIST ----

    private void list(CommandContext ctx) {
        String filter = null;
        String value = null;
        if (ctx.argc() == 5 && ctx.is(2, "filterby")) {
            if (ctx.is(3, "module") || ctx.is(3, "aclcat") || ctx.is(3, "pattern")) {
                filter = ctx.text(3).toLowerCase();
                value = ctx.text(4);
            } else {
                throw RedisError.SYNTAX;
            }
        } else if (ctx.argc() != 2) {
            throw RedisError.SYNTAX;
        }
        List<String> names = new ArrayList<>();
        for (CommandSpec spec : ctx.engine().table().all()) {
            addIfMatching(names, spec, filter, value);
            for (CommandSpec sub : spec.subcommands().values()) {
                addIfMatching(names, sub, filter, value);
            }
        }
        Reply r = ctx.reply();
        r.array(names.size());
        for (String name : names) {
            r.bulk(name);
        }
    }

    private static void addIfMatching(List<String> names, CommandSpec spec, String filter, String value) {
        boolean keep;
        if (filter == null) {
            keep = true;
        } else if (filter.equals("module")) {
            keep = false; // no modules are loaded
        } else if (filter.equals("aclcat")) {
            keep = AclCategories.of(spec).contains(value.toLowerCase());
        } else {
            keep = GlobMatcher.matches(value.getBytes(StandardCharsets.UTF_8),
                    spec.fullName().getBytes(StandardCharsets.UTF_8), true);
        }
        if (keep) {
            names.add(spec.fullName());
        }
    }

    // ---- COMMAND HELP ----

    private void help(CommandContext ctx) {
        HelpText.reply(ctx.reply(), "COMMAND",
                "(no subcommand)", "Describe every command of this server.",
                "COUNT", "Count the commands of this server.",
                "LIST [FILTERBY (MODULE <name>|ACLCAT <category>|PATTERN <glob>)]",
                "List command names, all of them or those matching the filter.",
                "INFO [<command-name> ...]", "Describe the named commands (all of them without names).",
                "DOCS [<command-name> ...]", "Documentation of the named commands (all of them without names).",
                "GETKEYS <full-command>", "The key names a full command would touch.",
                "GETKEYSANDFLAGS <full-command>", "The key names a full command would touch, with access flags.",
                "HELP", "Print this text.");
    }
}
