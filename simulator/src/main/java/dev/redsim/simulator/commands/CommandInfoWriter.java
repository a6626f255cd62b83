package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.AclCategories;
import dev.redsim.simulator.command.CommandFlag;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.protocol.Reply;

import java.util.ArrayList;
import java.util.List;

/**
 * One COMMAND INFO entry in Redis 7.0's shape: name, arity, flags, first key, last key, step, ACL categories,
 * tips, key specifications, subcommands. Flags, categories, tips and key specifications are sets in RESP3.
 * Key specifications are derived from the (first, last, step) triple: a begin_search by index and a range
 * find_keys, with RO/RW access flags from the command's flags (Redis's own specs are finer grained).
 */
final class CommandInfoWriter {
    private CommandInfoWriter() {
    }

    static void write(Reply r, CommandSpec spec) {
        r.array(10);
        r.bulk(spec.fullName());
        r.integer(spec.arity());
        writeFlags(r, spec);
        r.integer(spec.firstKey());
        r.integer(spec.lastKey());
        r.integer(spec.keyStep());
        List<String> categories = AclCategories.of(spec);
        r.set(categories.size());
        for (String category : categories) {
            r.simple("@" + category);
        }
        r.set(spec.tips().size());
        for (String tip : spec.tips()) {
            r.bulk(tip);
        }
        writeKeySpecs(r, spec);
        if (spec.hasSubcommands()) {
            r.array(spec.subcommands().size());
            for (CommandSpec sub : spec.subcommands().values()) {
                write(r, sub);
            }
        } else {
            r.set(0);
        }
    }

    /** Redis does not print the sentinel-only markers. */
    private static void writeFlags(Reply r, CommandSpec spec) {
        List<String> names = new ArrayList<>();
        for (CommandFlag flag : spec.flags()) {
            if (flag != CommandFlag.SENTINEL && flag != CommandFlag.ONLY_SENTINEL) {
                names.add(flag.redisName());
            }
        }
        r.set(names.size());
        for (String name : names) {
            r.simple(name);
        }
    }

    private static void writeKeySpecs(Reply r, CommandSpec spec) {
        if (spec.keynumSpec() != null) {
            writeKeynumSpec(r, spec, spec.keynumSpec());
            return;
        }
        if (spec.firstKey() <= 0) {
            r.set(0);
            return;
        }
        r.set(1);
        r.map(3);
        writeFlagsAndBeginSearch(r, spec, spec.firstKey());
        r.bulk("find_keys");
        r.map(2);
        r.bulk("type");
        r.bulk("range");
        r.bulk("spec");
        r.map(3);
        r.bulk("lastkey");
        // the legacy triple counts from the command name, the key spec from the first key
        r.integer(spec.lastKey() < 0 ? spec.lastKey() : spec.lastKey() - spec.firstKey());
        r.bulk("keystep");
        r.integer(spec.keyStep());
        r.bulk("limit");
        r.integer(0);
    }

    private static void writeKeynumSpec(Reply r, CommandSpec spec, CommandSpec.KeynumSpec keynum) {
        r.set(1);
        r.map(4);
        r.bulk("notes");
        r.bulk(keynum.notes());
        writeFlagsAndBeginSearch(r, spec, keynum.beginIndex());
        r.bulk("find_keys");
        r.map(2);
        r.bulk("type");
        r.bulk("keynum");
        r.bulk("spec");
        r.map(3);
        r.bulk("keynumidx");
        r.integer(keynum.keynumIndex());
        r.bulk("firstkey");
        r.integer(keynum.firstKey());
        r.bulk("keystep");
        r.integer(keynum.keyStep());
    }

    /** The key spec's flags and its begin_search part (the key found at a fixed argument index). */
    private static void writeFlagsAndBeginSearch(Reply r, CommandSpec spec, int index) {
        r.bulk("flags");
        List<String> flags = keySpecFlags(spec);
        r.set(flags.size());
        for (String flag : flags) {
            r.simple(flag);
        }
        r.bulk("begin_search");
        r.map(2);
        r.bulk("type");
        r.bulk("index");
        r.bulk("spec");
        r.map(1);
        r.bulk("index");
        r.integer(index);
    }

    /**
     * Access flags of a command's keys: those its table entry states, otherwise RW update for writers and
     * RO access for readers.
     */
    static List<String> keySpecFlags(CommandSpec spec) {
        if (spec.keySpecFlags() != null) {
            return spec.keySpecFlags();
        }
        if (spec.has(CommandFlag.WRITE)) {
            return List.of("RW", "update");
        }
        return List.of("RO", "access");
    }
}
