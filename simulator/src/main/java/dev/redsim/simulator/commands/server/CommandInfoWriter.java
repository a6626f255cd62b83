package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandDescription;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.KeySpec;
import dev.redsim.simulator.protocol.Reply;

import java.util.List;

/**
 * One COMMAND INFO entry in Redis 7.0's shape, written from the command table: name, arity, flags, first key,
 * last key, step, ACL categories, tips, key specifications, subcommands (only those the simulator implements).
 * Flags, categories, tips and key specifications are sets in RESP3; flags and categories are status replies.
 */
final class CommandInfoWriter {
    private CommandInfoWriter() {
    }

    static void write(Reply r, CommandSpec spec) {
        CommandDescription d = spec.description();
        r.array(10);
        r.bulk(d.fullName());
        r.integer(d.arity());
        statusSet(r, d.flagNames());
        r.integer(d.firstKey());
        r.integer(d.lastKey());
        r.integer(d.keyStep());
        statusSet(r, d.aclCategories());
        r.set(d.tips().size());
        for (String tip : d.tips()) {
            r.bulk(tip);
        }
        r.set(d.keySpecs().size());
        for (KeySpec keySpec : d.keySpecs()) {
            writeKeySpec(r, keySpec);
        }
        if (d.subcommands().isEmpty()) {
            r.set(0);
        } else {
            r.array(spec.subcommands().size());
            for (CommandSpec sub : spec.subcommands().values()) {
                write(r, sub);
            }
        }
    }

    static void statusSet(Reply r, List<String> names) {
        r.set(names.size());
        for (String name : names) {
            r.simple(name);
        }
    }

    private static void writeKeySpec(Reply r, KeySpec spec) {
        r.map(spec.notes() == null ? 3 : 4);
        if (spec.notes() != null) {
            r.bulk("notes");
            r.bulk(spec.notes());
        }
        r.bulk("flags");
        statusSet(r, spec.flags());
        r.bulk("begin_search");
        r.map(2);
        r.bulk("type");
        if (spec.beginSearch() instanceof KeySpec.AtIndex at) {
            r.bulk("index");
            r.bulk("spec");
            r.map(1);
            integerField(r, "index", at.index());
        } else if (spec.beginSearch() instanceof KeySpec.AfterKeyword after) {
            r.bulk("keyword");
            r.bulk("spec");
            r.map(2);
            r.bulk("keyword");
            r.bulk(after.keyword());
            integerField(r, "startfrom", after.startFrom());
        } else {
            r.bulk("unknown");
            r.bulk("spec");
            r.map(0);
        }
        r.bulk("find_keys");
        r.map(2);
        r.bulk("type");
        if (spec.findKeys() instanceof KeySpec.Range range) {
            r.bulk("range");
            r.bulk("spec");
            r.map(3);
            integerField(r, "lastkey", range.lastKey());
            integerField(r, "keystep", range.keyStep());
            integerField(r, "limit", range.limit());
        } else if (spec.findKeys() instanceof KeySpec.Keynum keynum) {
            r.bulk("keynum");
            r.bulk("spec");
            r.map(3);
            integerField(r, "keynumidx", keynum.keynumIndex());
            integerField(r, "firstkey", keynum.firstKey());
            integerField(r, "keystep", keynum.keyStep());
        } else {
            r.bulk("unknown");
            r.bulk("spec");
            r.map(0);
        }
    }

    private static void integerField(Reply r, String name, long value) {
        r.bulk(name);
        r.integer(value);
    }
}
