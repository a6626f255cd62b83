package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandFlag;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.KeyRef;
import dev.redsim.simulator.commands.common.HelpText;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.util.GlobMatcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * COMMAND and its subcommands: everything they print is read from the one command table, so a command added
 * anywhere in the simulator describes itself here without further work.
 */
public final class CommandCommands implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("command", this::all);
        t.handler("command|count", ctx -> ctx.reply().integer(ctx.processor().table().size()));
        t.handler("command|info", this::info);
        t.handler("command|docs", this::docs);
        t.handler("command|getkeys", ctx -> getKeys(ctx, false));
        t.handler("command|getkeysandflags", ctx -> getKeys(ctx, true));
        t.handler("command|list", this::list);
        t.handler("command|help", this::help);
    }

    // ---- COMMAND, COMMAND INFO ----

    private void all(CommandContext ctx) {
        var commands = ctx.processor().table().all();
        ctx.reply().array(commands.size());
        for (CommandSpec spec : commands) {
            CommandInfoWriter.write(ctx.reply(), spec);
        }
    }

    /** Named commands the simulator lacks (implemented by Redis or not) get a null, as unknown ones do in Redis. */
    private void info(CommandContext ctx) {
        if (ctx.argc() == 2) {
            all(ctx);
            return;
        }
        Reply r = ctx.reply();
        r.array(ctx.argc() - 2);
        for (int i = 2; i < ctx.argc(); i++) {
            CommandSpec spec = ctx.processor().table().lookupFullName(ctx.text(i));
            if (spec == null) {
                r.nullBulk();
            } else {
                CommandInfoWriter.write(r, spec);
            }
        }
    }

    // ---- COMMAND DOCS ----

    private void docs(CommandContext ctx) {
        List<CommandSpec> found = new ArrayList<>();
        if (ctx.argc() == 2) {
            found.addAll(ctx.processor().table().all());
        } else {
            for (int i = 2; i < ctx.argc(); i++) {
                CommandSpec spec = ctx.processor().table().lookupFullName(ctx.text(i));
                if (spec != null) {
                    found.add(spec);
                }
            }
        }
        Reply r = ctx.reply();
        r.map(found.size());
        for (CommandSpec spec : found) {
            r.bulk(spec.fullName());
            CommandDocsWriter.write(r, spec);
        }
    }

    // ---- COMMAND GETKEYS / GETKEYSANDFLAGS ----

    private void getKeys(CommandContext ctx, boolean withFlags) {
        byte[][] call = Arrays.copyOfRange(ctx.args(), 2, ctx.argc());
        CommandSpec spec = ctx.processor().table().lookup(call[0]);
        if (spec != null && spec.hasSubcommands()) {
            spec = call.length >= 2 ? spec.subcommands().get(CommandTable.lowerAscii(call[1])) : null;
        }
        if (spec == null) {
            throw new RedisError("ERR Invalid command specified");
        }
        if (!spec.hasKeyArguments()) {
            throw new RedisError("ERR The command has no key arguments");
        }
        if (!spec.arityAccepts(call.length)) {
            throw new RedisError("ERR Invalid number of arguments specified for command");
        }
        List<KeyRef> keys = spec.keys(call);
        if (keys == null || keys.isEmpty()) {
            if (!spec.has(CommandFlag.NO_MANDATORY_KEYS)) {
                throw new RedisError("ERR Invalid arguments specified for command");
            }
            keys = List.of();
        }
        Reply r = ctx.reply();
        r.array(keys.size());
        for (KeyRef key : keys) {
            if (withFlags) {
                r.array(2);
                r.bulk(call[key.index()]);
                CommandInfoWriter.statusSet(r, key.flags());
            } else {
                r.bulk(call[key.index()]);
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
        for (CommandSpec spec : ctx.processor().table().all()) {
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
            keep = spec.description().aclCategories().contains("@" + value.toLowerCase());
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
