package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandArgument;
import dev.redsim.simulator.command.CommandDocs;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.protocol.Reply;

import java.util.List;

/**
 * One COMMAND DOCS entry in Redis 7.0's shape, written from the command table: summary, since, group,
 * complexity, doc flags, deprecated since, replaced by, history, arguments (what redis-cli turns into its
 * hints) and the docs of the subcommands the simulator implements. Absent fields are left out, as Redis does;
 * the field order is Redis's (the table generator checks it).
 */
final class CommandDocsWriter {
    private CommandDocsWriter() {
    }

    static void write(Reply r, CommandSpec spec) {
        CommandDocs d = spec.description().docs();
        boolean container = !spec.description().subcommands().isEmpty();
        r.map(count(d.summary(), d.since(), d.group(), d.complexity(), d.deprecatedSince(), d.replacedBy())
                + (d.docFlags().isEmpty() ? 0 : 1) + (d.history().isEmpty() ? 0 : 1)
                + (d.arguments().isEmpty() ? 0 : 1) + (container ? 1 : 0));
        text(r, "summary", d.summary());
        text(r, "since", d.since());
        text(r, "group", d.group());
        text(r, "complexity", d.complexity());
        if (!d.docFlags().isEmpty()) {
            r.bulk("doc_flags");
            CommandInfoWriter.statusSet(r, d.docFlags());
        }
        text(r, "deprecated_since", d.deprecatedSince());
        text(r, "replaced_by", d.replacedBy());
        if (!d.history().isEmpty()) {
            r.bulk("history");
            r.set(d.history().size());
            for (CommandDocs.HistoryEntry change : d.history()) {
                r.array(2);
                r.bulk(change.version());
                r.bulk(change.change());
            }
        }
        if (!d.arguments().isEmpty()) {
            r.bulk("arguments");
            writeArguments(r, d.arguments());
        }
        if (container) {
            r.bulk("subcommands");
            r.map(spec.subcommands().size());
            for (CommandSpec sub : spec.subcommands().values()) {
                r.bulk(sub.fullName());
                write(r, sub);
            }
        }
    }

    private static void writeArguments(Reply r, List<CommandArgument> arguments) {
        r.array(arguments.size());
        for (CommandArgument a : arguments) {
            r.map(2 + count(a.token(), a.summary(), a.since(), a.deprecatedSince()) + (a.keySpecIndex() >= 0 ? 1 : 0)
                    + (a.flags().isEmpty() ? 0 : 1) + (a.arguments().isEmpty() ? 0 : 1));
            text(r, "name", a.name());
            text(r, "type", a.type());
            if (a.keySpecIndex() >= 0) {
                r.bulk("key_spec_index");
                r.integer(a.keySpecIndex());
            }
            text(r, "token", a.token());
            text(r, "summary", a.summary());
            text(r, "since", a.since());
            text(r, "deprecated_since", a.deprecatedSince());
            if (!a.flags().isEmpty()) {
                r.bulk("flags");
                CommandInfoWriter.statusSet(r, a.flags());
            }
            if (!a.arguments().isEmpty()) {
                r.bulk("arguments");
                writeArguments(r, a.arguments());
            }
        }
    }

    private static int count(String... texts) {
        int n = 0;
        for (String text : texts) {
            n += text == null ? 0 : 1;
        }
        return n;
    }

    private static void text(Reply r, String field, String value) {
        if (value != null) {
            r.bulk(field);
            r.bulk(value);
        }
    }
}
